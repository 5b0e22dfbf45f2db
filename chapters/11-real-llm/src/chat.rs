//! Chatting with the model: the ChatML template SmolLM2 was tuned on, and a reply generated token
//! by token against the cache, streamed as it comes, until `<|im_end|>`.

use crate::tokenizer::Tokenizer;
use ch10_language_models::llama::generate::pick;
use ch10_language_models::llama::lm::LanguageModel;
use rand::rngs::StdRng;
use rand::SeedableRng;

/// The system message of the file's chat template, used when none is given.
pub const DEFAULT_SYSTEM: &str =
    "You are a helpful AI assistant named SmolLM, trained by Hugging Face";

/// The prompt for one user message: ChatML, as the file's `tokenizer.chat_template` writes it
/// with `add_generation_prompt`.
// ANCHOR: template
pub fn chat_prompt(system: &str, user: &str) -> String {
    format!(
        "<|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"
    )
}
// ANCHOR_END: template

/// How the reply's tokens are chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// 1: greedy
    pub top_k: usize,
    pub temperature: f32,
    pub seed: u64,
}

/// What one reply took.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub ids: Vec<u32>,
    pub prompt_tokens: usize,
    pub prefill_seconds: f64,
    pub decode_seconds: f64,
}

/// Generates at most `max_tokens` after `prompt_ids`, stopping after `stop`; calls `on_text`
/// with each piece of text as soon as it is whole UTF-8.
pub fn reply<M: LanguageModel>(
    model: &M,
    tok: &Tokenizer,
    prompt_ids: &[u32],
    max_tokens: usize,
    choice: Choice,
    stop: u32,
    mut on_text: impl FnMut(&str),
) -> Reply {
    let mut rng = StdRng::seed_from_u64(choice.seed);
    let mut cache = model.new_cache();
    let ids: Vec<usize> = prompt_ids.iter().map(|&i| i as usize).collect();
    let start = std::time::Instant::now();
    let mut logits = model.logits_cached(&ids, &mut cache);
    let prefill_seconds = start.elapsed().as_secs_f64();
    let start = std::time::Instant::now();
    let (mut out, mut shown) = (Vec::new(), 0);
    for _ in 0..max_tokens {
        let last = &logits[logits.len() - model.vocab()..];
        let next = if choice.top_k == 1 {
            support::argmax(last)
        } else {
            pick(last, choice.temperature, Some(choice.top_k), &mut rng)
        } as u32;
        out.push(next);
        if next == stop {
            break;
        }
        // show what is new, once it ends on a whole character
        let text = tok.decode(&out);
        if !text.ends_with('\u{FFFD}') && text.len() > shown {
            on_text(&text[shown..]);
            shown = text.len();
        }
        logits = model.logits_cached(&[next as usize], &mut cache);
    }
    Reply {
        ids: out,
        prompt_tokens: ids.len(),
        prefill_seconds,
        decode_seconds: start.elapsed().as_secs_f64(),
    }
}

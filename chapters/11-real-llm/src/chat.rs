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

/// How the reply's tokens are chosen. [`Choice::new`] checks it; [`reply`] refuses one that
/// fails [`Choice::check`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// draw among the `top_k` likeliest tokens; 1: greedy, always the likeliest; 0: among every
    /// token (chapter 10's rule, in its `generate` example and its page's widget)
    pub top_k: usize,
    /// above 0: below 1 sharpens the distribution, above 1 flattens it
    pub temperature: f32,
    pub seed: u64,
}

impl Choice {
    /// Always the likeliest token.
    pub const GREEDY: Choice = Choice { top_k: 1, temperature: 1.0, seed: 0 };

    /// A choice of `top_k`, `temperature` and `seed`, or why not ([`Choice::check`]).
    pub fn new(top_k: usize, temperature: f32, seed: u64) -> Result<Choice, String> {
        let choice = Choice { top_k, temperature, seed };
        choice.check()?;
        Ok(choice)
    }

    /// The one check of a choice, shared by the `chat` example's options, the notebook and
    /// [`reply`]: a temperature that is a finite number above 0 (0 would divide the logits by
    /// zero, NaN would make every weight NaN). Every `top_k` is a choice.
    pub fn check(&self) -> Result<(), String> {
        let t = self.temperature;
        if !(t.is_finite() && t > 0.0) {
            return Err(format!(
                "temperature {t}: a number above 0 (for the likeliest token every time, top-k 1)"
            ));
        }
        Ok(())
    }
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
///
/// # Panics
/// If `choice` fails [`Choice::check`], with its message.
pub fn reply<M: LanguageModel>(
    model: &M,
    tok: &Tokenizer,
    prompt_ids: &[u32],
    max_tokens: usize,
    choice: Choice,
    stop: u32,
    mut on_text: impl FnMut(&str),
) -> Reply {
    if let Err(e) = choice.check() {
        panic!("reply: {e}");
    }
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
            pick(last, choice.temperature, (choice.top_k > 0).then_some(choice.top_k), &mut rng)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::PreTokenizerKind;

    /// Two tokens, equally likely, whatever came before.
    struct Even;

    impl LanguageModel for Even {
        type Cache = ();
        fn vocab(&self) -> usize {
            2
        }
        fn new_cache(&self) {}
        fn logits(&self, tokens: &[usize]) -> Vec<f32> {
            vec![0.0; 2 * tokens.len()]
        }
        fn logits_cached(&self, new: &[usize], _: &mut ()) -> Vec<f32> {
            self.logits(new)
        }
    }

    fn two_tokens() -> Tokenizer {
        let tokens = vec!["a".to_string(), "b".to_string()];
        Tokenizer::from_parts(tokens, &[], vec![], PreTokenizerKind::Gpt2).unwrap()
    }

    #[test]
    fn a_checked_choice_replies() {
        let choice = Choice::new(2, 0.7, 3).unwrap();
        let r = reply(&Even, &two_tokens(), &[0], 4, choice, u32::MAX, |_| {});
        assert_eq!(r.ids.len(), 4);
    }

    /// Top-k 0 draws among every token, as chapter 10's `pick` with no limit does, seed for seed.
    #[test]
    fn top_k_0_draws_among_every_token() {
        let choice = Choice::new(0, 1.0, 5).unwrap();
        let r = reply(&Even, &two_tokens(), &[0], 16, choice, u32::MAX, |_| {});
        let mut rng = StdRng::seed_from_u64(5);
        let all: Vec<u32> =
            (0..16).map(|_| pick(&[0.0, 0.0], 1.0, None, &mut rng) as u32).collect();
        assert_eq!(r.ids, all);
        // both tokens are drawn: no limit cut the second one off
        assert!(r.ids.contains(&0) && r.ids.contains(&1), "{:?}", r.ids);
    }

    #[test]
    #[should_panic(expected = "reply: temperature 0: a number above 0")]
    fn reply_refuses_a_temperature_of_0() {
        let choice = Choice { top_k: 2, temperature: 0.0, seed: 0 };
        reply(&Even, &two_tokens(), &[0], 4, choice, u32::MAX, |_| {});
    }

    #[test]
    #[should_panic(expected = "reply: temperature NaN: a number above 0")]
    fn reply_refuses_a_temperature_of_nan() {
        let choice = Choice { top_k: 2, temperature: f32::NAN, seed: 0 };
        reply(&Even, &two_tokens(), &[0], 4, choice, u32::MAX, |_| {});
    }
}

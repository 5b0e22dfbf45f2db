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

/// A reply under way, one token at a time: the model's cache, the logits of the last position, how
/// the next token is chosen, and the tokens so far. [`reply`] runs it to the end; the book's page
/// runs it one token per call, to show each as it comes.
pub struct Replying<M: LanguageModel> {
    cache: M::Cache,
    logits: Vec<f32>,
    rng: StdRng,
    choice: Choice,
    stop: u32,
    /// the reply's tokens so far, the stop token included once it came
    pub ids: Vec<u32>,
    /// bytes of the reply's text already handed out
    shown: usize,
}

/// One token of a reply, and the text it completes (empty while a character is unfinished, and
/// for the stop token).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub id: u32,
    pub text: String,
}

impl<M: LanguageModel> Replying<M> {
    /// Runs `prompt_ids` through `model` (the prefill); the reply ends after `stop`.
    pub fn start(model: &M, prompt_ids: &[u32], choice: Choice, stop: u32) -> Result<Self, String> {
        choice.check()?;
        if prompt_ids.is_empty() {
            return Err("a prompt of at least one token".into());
        }
        let mut cache = model.new_cache();
        let ids: Vec<usize> = prompt_ids.iter().map(|&i| i as usize).collect();
        let logits = model.logits_cached(&ids, &mut cache);
        let rng = StdRng::seed_from_u64(choice.seed);
        Ok(Replying { cache, logits, rng, choice, stop, ids: Vec::new(), shown: 0 })
    }

    /// The next token and the text it completes, or `None` once the stop token has come.
    pub fn next(&mut self, model: &M, tok: &Tokenizer) -> Option<Step> {
        if self.ids.last() == Some(&self.stop) {
            return None;
        }
        let last = &self.logits[self.logits.len() - model.vocab()..];
        let (top_k, temperature) = (self.choice.top_k, self.choice.temperature);
        let next = if top_k == 1 {
            support::argmax(last)
        } else {
            pick(last, temperature, (top_k > 0).then_some(top_k), &mut self.rng)
        } as u32;
        self.ids.push(next);
        if next == self.stop {
            return Some(Step { id: next, text: String::new() });
        }
        // what is new, once it ends on a whole character
        let text = tok.decode(&self.ids);
        let mut new = String::new();
        if !text.ends_with('\u{FFFD}') && text.len() > self.shown {
            new = text[self.shown..].to_string();
            self.shown = text.len();
        }
        self.logits = model.logits_cached(&[next as usize], &mut self.cache);
        Some(Step { id: next, text: new })
    }
}

/// Generates at most `max_tokens` after `prompt_ids`, stopping after `stop`; calls `on_text`
/// with each piece of text as soon as it is whole UTF-8.
///
/// # Panics
/// If `choice` fails [`Choice::check`], with its message, or the prompt is empty.
pub fn reply<M: LanguageModel>(
    model: &M,
    tok: &Tokenizer,
    prompt_ids: &[u32],
    max_tokens: usize,
    choice: Choice,
    stop: u32,
    mut on_text: impl FnMut(&str),
) -> Reply {
    let start = std::time::Instant::now();
    let mut replying =
        Replying::start(model, prompt_ids, choice, stop).unwrap_or_else(|e| panic!("reply: {e}"));
    let prefill_seconds = start.elapsed().as_secs_f64();
    let start = std::time::Instant::now();
    for _ in 0..max_tokens {
        match replying.next(model, tok) {
            Some(step) if !step.text.is_empty() => on_text(&step.text),
            Some(_) => {}
            None => break,
        }
    }
    Reply {
        ids: replying.ids,
        prompt_tokens: prompt_ids.len(),
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

    /// Token by token, as the page runs it, is the whole reply; the stop token ends it, and an
    /// empty prompt is refused.
    #[test]
    fn a_reply_token_by_token_is_the_whole_reply() {
        let (tok, choice) = (two_tokens(), Choice::new(0, 1.0, 9).unwrap());
        let whole = reply(&Even, &tok, &[0], 12, choice, 1, |_| {});
        let mut replying = Replying::start(&Even, &[0], choice, 1).unwrap();
        let steps: Vec<Step> = std::iter::from_fn(|| replying.next(&Even, &tok)).take(12).collect();
        assert_eq!(steps.iter().map(|s| s.id).collect::<Vec<_>>(), whole.ids);
        assert_eq!(whole.ids.last(), Some(&1), "the stop token (b) ends it: {:?}", whole.ids);
        assert!(replying.next(&Even, &tok).is_none());
        let text: String = steps.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(text, "a".repeat(whole.ids.len() - 1));
        let err = Replying::start(&Even, &[], choice, 1).err().unwrap();
        assert_eq!(err, "a prompt of at least one token");
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

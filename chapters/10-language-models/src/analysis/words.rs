//! How much of what the character model writes is English, measured the simplest way: the share
//! of the words it writes that occur as words in its training text.

use std::collections::HashSet;

use crate::char_model::chars::{decode, encode, split};
use crate::llama::generate::{generate, Recompute, Sampling};
use crate::llama::lm::LanguageModel;

/// The words of `text`: maximal runs of ASCII letters, lowercased.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_ascii_lowercase())
}

/// `(known, written)`: how many of the words of `written` occur among the words of `text`.
pub fn known_words(written: &str, text: &str) -> (usize, usize) {
    let vocabulary: HashSet<String> = words(text).collect();
    let all: Vec<String> = words(written).collect();
    (all.iter().filter(|w| vocabulary.contains(*w)).count(), all.len())
}

/// The three samples of the page: each prompt with its sampling seed (temperature 0.8).
pub const SAMPLES: [(&str, u64); 3] = [("LAWYER, n.", 1), ("PHILOSOPHY, n.", 2), ("The", 3)];

/// Characters each sample writes after its prompt.
pub const SAMPLE_LENGTH: usize = 160;

/// What the model writes after each of [`SAMPLES`]' prompts ([`SAMPLE_LENGTH`] characters,
/// temperature 0.8, the prompt's seed), in their order.
pub fn sample_texts(model: &impl LanguageModel, recompute: Recompute) -> Vec<String> {
    SAMPLES
        .iter()
        .map(|&(prompt, seed)| {
            let sampling = Sampling::Sample { temperature: 0.8, top_k: None, seed };
            let ids = encode(prompt).expect("the prompts are plain ASCII");
            decode(&generate(model, &ids, SAMPLE_LENGTH, sampling, recompute))
        })
        .collect()
}

/// `(known, written)` for the samples' texts (prompts left out) against the training text.
pub fn known_in_samples(texts: &[String]) -> (usize, usize) {
    known_words(&texts.join("\n"), &decode(&split().0))
}

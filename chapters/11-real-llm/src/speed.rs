//! What the speed comparison times: a 32-token prompt run at once (prefill), then 64 tokens
//! generated greedily one at a time against the cache (decode), each as tokens per second; and
//! the machine's memory bandwidth, which bounds decode.

use std::time::Instant;

use ch10_language_models::llama::lm::LanguageModel;
use rayon::prelude::*;

use crate::decode::{Decoder, Keep, Policy, Profile};
use crate::tokenizer::Tokenizer;

/// Tokens in the prompt.
pub const PROMPT_TOKENS: usize = 32;
/// Tokens generated after it.
pub const NEW_TOKENS: usize = 64;

/// The prompt's text; its first [`PROMPT_TOKENS`] tokens are the prompt.
pub const PROMPT_TEXT: &str = "The history of the printing press begins in the fifteenth century, \
when Johannes Gutenberg combined movable metal type, oil-based ink and a wooden press into a \
system that could produce books quickly and cheaply for the first time in Europe.";

/// One timed generation.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    pub prefill_tokens_per_s: f64,
    /// the tokens after the first, over the time they took
    pub decode_tokens_per_s: f64,
    /// the greedy tokens, `<|im_end|>` included if chosen
    pub tokens: Vec<usize>,
}

/// The prompt's ids.
///
/// # Panics
/// If the text is shorter than [`PROMPT_TOKENS`] tokens.
pub fn prompt_ids(tok: &Tokenizer) -> Vec<usize> {
    let ids: Vec<usize> = tok.encode(PROMPT_TEXT).iter().map(|&t| t as usize).collect();
    assert!(ids.len() >= PROMPT_TOKENS, "the prompt text is too short");
    ids[..PROMPT_TOKENS].to_vec()
}

/// Times `step`, which runs new tokens and returns the last one's logits.
fn time(prompt: &[usize], mut step: impl FnMut(&[usize]) -> Vec<f32>) -> Round {
    let start = Instant::now();
    let mut tokens = vec![support::argmax(&step(prompt))];
    let prefill = start.elapsed().as_secs_f64();
    let start = Instant::now();
    while tokens.len() < NEW_TOKENS {
        let last = step(&tokens[tokens.len() - 1..]);
        tokens.push(support::argmax(&last));
    }
    Round {
        prefill_tokens_per_s: prompt.len() as f64 / prefill,
        decode_tokens_per_s: (NEW_TOKENS - 1) as f64 / start.elapsed().as_secs_f64(),
        tokens,
    }
}

/// One generation on the decode path.
pub fn decoder_round(model: &Decoder, prompt: &[usize]) -> Round {
    let mut cache = model.new_cache(Policy::Full { capacity: prompt.len() + NEW_TOKENS });
    time(prompt, |new| model.forward(new, &mut cache, Keep::Last))
}

/// Where the time of [`NEW_TOKENS`] decode steps goes, after the prompt: the sum over the steps.
pub fn decoder_profile(model: &Decoder, prompt: &[usize]) -> Profile {
    let mut cache = model.new_cache(Policy::Full { capacity: prompt.len() + NEW_TOKENS });
    let mut next = support::argmax(&model.forward(prompt, &mut cache, Keep::Last));
    let mut profile = Profile::default();
    for _ in 1..NEW_TOKENS {
        next = support::argmax(&model.forward_timed(&[next], &mut cache, Keep::Last, &mut profile));
    }
    profile
}

/// One generation on chapter 10's model and cache.
pub fn chapter10_round<M: LanguageModel>(model: &M, prompt: &[usize]) -> Round {
    let mut cache = model.new_cache();
    time(prompt, |new| {
        let logits = model.logits_cached(new, &mut cache);
        logits[logits.len() - model.vocab()..].to_vec()
    })
}

/// The sum of `xs` in 16 running sums, so that the compiler keeps them in vector registers
/// and the loop waits on memory, not on additions.
fn sum_of(xs: &[f32]) -> f32 {
    let mut acc = [0f32; 16];
    for chunk in xs.chunks_exact(16) {
        for (a, x) in acc.iter_mut().zip(chunk) {
            *a += x;
        }
    }
    acc.iter().sum::<f32>() + xs.chunks_exact(16).remainder().iter().sum::<f32>()
}

// ANCHOR: bandwidth
/// Bytes per second read from memory by every thread summing its share of 1 GiB of floats,
/// best of 3: what a decode step that reads its weights once can at best reach.
pub fn read_bandwidth() -> f64 {
    let data = vec![1.0f32; 1 << 28];
    (0..3)
        .map(|_| {
            let start = Instant::now();
            let sum: f32 = data.par_chunks(1 << 16).map(sum_of).sum();
            assert!(sum > 0.0);
            std::mem::size_of_val(data.as_slice()) as f64 / start.elapsed().as_secs_f64()
        })
        .fold(0.0, f64::max)
}
// ANCHOR_END: bandwidth

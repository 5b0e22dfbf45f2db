//! Generating text: the next token from the last position's logits, appended, again.
//!
//! [`generate`] runs the model on the whole sequence at every step ([`Recompute::Everything`]) or
//! once on the prompt and then on one token per step against a [`KvCache`](crate::KvCache)
//! ([`Recompute::NewTokenOnly`]). Both pick the same tokens: a test checks it.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::llama::lm::LanguageModel;

/// How each step runs the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recompute {
    /// the whole sequence every step: `n` steps cost O(n^2) token passes
    Everything,
    /// the prompt once, then one token per step against the KV cache: O(n)
    NewTokenOnly,
}

/// How the next token is chosen from the logits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sampling {
    /// the most likely token (ties: the lowest id)
    Greedy,
    /// a draw from `softmax(logits / temperature)` over the `top_k` most likely tokens (all of
    /// them if `None`), from a generator seeded with `seed`
    Sample { temperature: f32, top_k: Option<usize>, seed: u64 },
}

/// Picks a token from one row of logits.
pub fn pick(logits: &[f32], temperature: f32, top_k: Option<usize>, rng: &mut StdRng) -> usize {
    let mut order: Vec<usize> = (0..logits.len()).collect();
    order.sort_by(|&a, &b| logits[b].total_cmp(&logits[a]).then(a.cmp(&b)));
    order.truncate(top_k.unwrap_or(logits.len()).clamp(1, logits.len()));
    let top = logits[order[0]];
    let weights: Vec<f64> =
        order.iter().map(|&t| (((logits[t] - top) / temperature) as f64).exp()).collect();
    let mut u = rng.gen::<f64>() * weights.iter().sum::<f64>();
    for (&t, w) in order.iter().zip(&weights) {
        if u < *w {
            return t;
        }
        u -= w;
    }
    order[order.len() - 1]
}

/// `new_tokens` tokens after `prompt` (ids of one sequence), chosen by `sampling`, from any
/// [`LanguageModel`].
///
/// # Panics
/// If the prompt is empty or holds an id outside the vocabulary.
// ANCHOR: generate
pub fn generate<Model: LanguageModel>(
    model: &Model,
    prompt: &[usize],
    new_tokens: usize,
    sampling: Sampling,
    recompute: Recompute,
) -> Vec<usize> {
    assert!(!prompt.is_empty(), "generate: the prompt must hold at least one token");
    let mut rng = StdRng::seed_from_u64(match sampling {
        Sampling::Sample { seed, .. } => seed,
        Sampling::Greedy => 0,
    });
    let mut cache = model.new_cache();
    let mut tokens = prompt.to_vec();
    let mut fresh = prompt.len(); // tokens the cache has not seen
    for _ in 0..new_tokens {
        let logits = match recompute {
            Recompute::Everything => model.logits(&tokens),
            Recompute::NewTokenOnly => {
                model.logits_cached(&tokens[tokens.len() - fresh..], &mut cache)
            }
        };
        let last = &logits[logits.len() - model.vocab()..]; // the logits after the last token
        let next = match sampling {
            Sampling::Greedy => support::argmax(last), // ties: the lowest id
            Sampling::Sample { temperature, top_k, .. } => pick(last, temperature, top_k, &mut rng),
        };
        tokens.push(next);
        fresh = 1;
    }
    tokens[prompt.len()..].to_vec()
}
// ANCHOR_END: generate

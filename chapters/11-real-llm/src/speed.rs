//! What the speed comparison times: a 32-token prompt run at once (prefill), then 64 tokens
//! generated greedily one at a time against the cache (decode), each as tokens per second; where
//! a decode step's time goes (a separate, profiled pass); and the machine's memory bandwidth as
//! three readers measure it: an estimate of how fast a decode step that reads every weight once
//! could go.

use std::time::Instant;

use ch10_language_models::llama::lm::LanguageModel;
use rayon::prelude::*;

use ch08_efficient::fast::Isa;

use crate::decode::{Decoder, Keep, Matrix, Policy, Profile};
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

/// The longer prompts timed apart, in tokens: the first tokens of chapter 10's text
/// ([`crate::streaming::text_ids`]).
pub const LONG_PROMPTS: [usize; 2] = [256, 1024];

/// One long prompt run at once on the decode path, into a fresh cache: tokens per second, and
/// the greedy token it predicts next.
pub fn prompt_round(model: &Decoder, prompt: &[usize]) -> (f64, usize) {
    let mut cache = model.new_cache(Policy::Full { capacity: prompt.len() + 1 });
    let start = Instant::now();
    let logits = model.forward(prompt, &mut cache, Keep::Last);
    let rate = prompt.len() as f64 / start.elapsed().as_secs_f64();
    (rate, support::argmax(&logits))
}

/// One generation on the decode path.
pub fn decoder_round(model: &Decoder, prompt: &[usize]) -> Round {
    let mut cache = model.new_cache(Policy::Full { capacity: prompt.len() + NEW_TOKENS });
    time(prompt, |new| model.forward(new, &mut cache, Keep::Last))
}

/// Where the time of the decode steps goes: a pass of its own, the prompt then the
/// [`NEW_TOKENS`]` - 1` steps after the first token, each part timed and summed over the steps.
/// The timed rounds run without these laps.
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

/// Bytes in each buffer a bandwidth reader goes through: 1 GiB, far more than any CPU cache.
pub const BANDWIDTH_BYTES: usize = 1 << 30;

/// Passes over the buffer per reader; the fastest counts.
const PASSES: usize = 3;

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

/// `bytes` over the fastest of [`PASSES`] runs of `pass`.
fn best_rate(bytes: usize, mut pass: impl FnMut()) -> f64 {
    (0..PASSES)
        .map(|_| {
            let start = Instant::now();
            pass();
            bytes as f64 / start.elapsed().as_secs_f64()
        })
        .fold(0.0, f64::max)
}

// ANCHOR: bandwidth
/// One way of reading memory and the rate it reached, in bytes per second.
#[derive(Clone, Debug, PartialEq)]
pub struct Reader {
    pub name: &'static str,
    pub bytes_per_s: f64,
}

/// The memory bandwidth as three readers see it, each the best of 3 passes over 1 GiB on every
/// thread: a plain sum; the decode path's own `f32` matrix-vector product (its kernel, its
/// prefetch, its sharing of rows among the threads) on a 1 GiB matrix of 576 columns, as the
/// model's; and STREAM's triad `a = b + s·c`, counted as STREAM counts it (two arrays read, one
/// written, 12 bytes per element). The best of them is what this chapter calls the bandwidth:
/// a measurement, not a ceiling, since another way of reading may reach more.
pub fn bandwidth_readers() -> Vec<Reader> {
    let n = BANDWIDTH_BYTES / 4;
    let data = vec![1.0f32; n];
    let sum = sum_reader(&data);
    let cols = 576;
    let rows = n / cols;
    let mut data = data;
    data.truncate(rows * cols);
    let matrix = Matrix::f32(rows, cols, data);
    let x = vec![1.0f32; cols];
    let product = best_rate(matrix.bytes(), || {
        assert_eq!(matrix.apply(Isa::chosen(), &x, 1)[rows - 1], cols as f32);
    });
    drop(matrix);
    let third = n / 3;
    let (b, c, mut a) = (vec![1.0f32; third], vec![2.0f32; third], vec![0.0f32; third]);
    let triad = best_rate(3 * 4 * third, || {
        a.par_chunks_mut(1 << 16).zip(b.par_chunks(1 << 16)).zip(c.par_chunks(1 << 16)).for_each(
            |((a, b), c)| {
                for ((a, b), c) in a.iter_mut().zip(b).zip(c) {
                    *a = b + 3.0 * c;
                }
            },
        );
        assert_eq!(a[third - 1], 7.0);
    });
    vec![
        Reader { name: "sum", bytes_per_s: sum },
        Reader { name: "f32 matrix-vector product", bytes_per_s: product },
        Reader { name: "STREAM triad", bytes_per_s: triad },
    ]
}

/// The sum reader of [`bandwidth_readers`] over `data` (ones, far larger than any cache):
/// bytes per second, the best of its passes. The speed example runs it right after each `f32`
/// decode round, so that a round and its reading share the same moment of a shared machine.
pub fn sum_reader(data: &[f32]) -> f64 {
    best_rate(std::mem::size_of_val(data), || {
        let sum: f32 = data.par_chunks(1 << 16).map(sum_of).sum();
        assert!(sum > 0.0);
    })
}
// ANCHOR_END: bandwidth

/// The best of `readers`' rates.
pub fn best_reader(readers: &[Reader]) -> f64 {
    readers.iter().map(|r| r.bytes_per_s).fold(0.0, f64::max)
}

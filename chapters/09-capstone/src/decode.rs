//! Greedy decoding: the model writes its answer one token at a time, each time reading what it has
//! written so far, until it writes `EOS`.

use ch01_attention::{broadcast_mask, causal_allowed};
use ch06_masks::{encoder_mask, memory_mask};
use dfdx::prelude::*;
use support::argmax;

use crate::data::{ids, tokens};
use crate::presets::{Reverser, HEADS, MAX_LEN};
use crate::vocab::{token_digit, EOS, PAD, SOS, VOCAB};

// ANCHOR: greedy
/// The model's answers for a batch of digit sequences: for each, the digits it wrote before its
/// first `EOS` (or before running out of positions).
pub fn greedy<Dev: Device<f32>>(
    model: &Reverser<Dev>,
    dev: &Dev,
    inputs: &[Vec<u8>],
) -> Vec<Vec<u8>> {
    let src = crate::data::pad(inputs.iter().map(|d| tokens(d).0).collect());
    let b = src.len();
    let src_mask = encoder_mask(dev, &src, PAD, Const::<HEADS>);
    let (memory, _) = model.encode(ids(dev, &src), Some(&src_mask));
    let longest = inputs.iter().map(Vec::len).max().unwrap_or(0);
    let mut written: Vec<Vec<usize>> = vec![vec![SOS]; b];
    // one step per token: the answer is one token longer than the input (its EOS)
    for _ in 0..=longest.min(MAX_LEN - 1) {
        let t = written[0].len();
        let causal = broadcast_mask(causal_allowed(dev, t), b, Const::<HEADS>);
        let cross = memory_mask(dev, &src, PAD, Const::<HEADS>, t);
        let (logits, _) = model.decode(ids(dev, &written), &memory, Some(&causal), Some(&cross));
        let logits = logits.as_vec();
        for (i, row) in written.iter_mut().enumerate() {
            let last = &logits[(i * t + t - 1) * VOCAB..(i * t + t) * VOCAB];
            row.push(argmax(last));
        }
    }
    written
        .iter()
        .map(|w| {
            w[1..]
                .iter()
                .take_while(|&&t| t != EOS)
                .map(|&t| token_digit(t).unwrap_or(u8::MAX))
                .collect()
        })
        .collect()
}
// ANCHOR_END: greedy

/// How many of `inputs` the model reverses exactly (greedy decoding, in batches of 250).
pub fn count_reversed<Dev: Device<f32>>(
    model: &Reverser<Dev>,
    dev: &Dev,
    inputs: &[Vec<u8>],
) -> usize {
    inputs
        .chunks(250)
        .map(|chunk| {
            let answers = greedy(model, dev, chunk);
            chunk.iter().zip(&answers).filter(|(d, a)| d.iter().rev().eq(a.iter())).count()
        })
        .sum()
}

/// The share of `inputs` whose greedy answer is exactly the reversed input.
pub fn exact_accuracy<Dev: Device<f32>>(
    model: &Reverser<Dev>,
    dev: &Dev,
    inputs: &[Vec<u8>],
) -> f64 {
    count_reversed(model, dev, inputs) as f64 / inputs.len() as f64
}

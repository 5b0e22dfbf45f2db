//! The task: reverse a sequence of digits. Sequences are drawn from a seeded generator; the
//! held-out ones are drawn first, and the training stream never produces one of them.

use std::collections::HashSet;
use std::ops::RangeInclusive;

use dfdx::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::config::TrainConfig;
use crate::vocab::{digit_token, EOS, PAD, SOS};

/// Lengths the model trains on.
pub const TRAIN_LENGTHS: RangeInclusive<usize> = 1..=10;
/// Longer lengths, never seen in training: how far does reversal generalise?
pub const LONGER_LENGTHS: RangeInclusive<usize> = 11..=14;
/// Held-out sequences this long or longer never appear in training. Shorter ones cannot be kept
/// out: there are only 10 + 100 + 1,000 of them, and training draws most of them
/// ([`short_draws`](crate::train::short_draws) counts how many).
pub const UNSEEN_FROM_LENGTH: usize = 4;

// ANCHOR: example
/// The three token sequences of one example. For the digits `3 1 4`:
/// source `[6, 4, 7]`, decoder input `[SOS, 7, 4, 6]`, decoder target `[7, 4, 6, EOS]`.
pub fn tokens(digits: &[u8]) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let src: Vec<usize> = digits.iter().map(|&d| digit_token(d)).collect();
    let reversed: Vec<usize> = src.iter().rev().copied().collect();
    let tgt_in = std::iter::once(SOS).chain(reversed.iter().copied()).collect();
    let tgt_out = reversed.into_iter().chain(std::iter::once(EOS)).collect();
    (src, tgt_in, tgt_out)
}
// ANCHOR_END: example

/// A batch of examples, each sequence padded with [`PAD`] to the longest of its kind.
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    pub src: Vec<Vec<usize>>,
    pub tgt_in: Vec<Vec<usize>>,
    pub tgt_out: Vec<Vec<usize>>,
}

impl Batch {
    pub fn new(sequences: &[Vec<u8>]) -> Self {
        let (mut src, mut tgt_in, mut tgt_out) = (Vec::new(), Vec::new(), Vec::new());
        for digits in sequences {
            let (s, i, o) = tokens(digits);
            src.push(s);
            tgt_in.push(i);
            tgt_out.push(o);
        }
        Batch { src: pad(src), tgt_in: pad(tgt_in), tgt_out: pad(tgt_out) }
    }

    /// Real (not padding) target tokens: what the loss and the token accuracy count.
    pub fn real_targets(&self) -> usize {
        self.tgt_out.iter().flatten().filter(|&&t| t != PAD).count()
    }
}

/// Pads every row with [`PAD`] to the longest row.
pub fn pad(rows: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    let len = rows.iter().map(Vec::len).max().unwrap_or(0);
    rows.into_iter()
        .map(|mut r| {
            r.resize(len, PAD);
            r
        })
        .collect()
}

/// Random digit sequences with lengths uniform in `lengths`, from a seeded generator, skipping
/// any sequence in `exclude`.
pub struct Sequences {
    rng: StdRng,
    lengths: RangeInclusive<usize>,
    exclude: HashSet<Vec<u8>>,
}

impl Sequences {
    /// The sequences of `exclude` at least [`UNSEEN_FROM_LENGTH`] long are never produced.
    pub fn new(seed: u64, lengths: RangeInclusive<usize>, exclude: &[Vec<u8>]) -> Self {
        let exclude = exclude.iter().filter(|s| s.len() >= UNSEEN_FROM_LENGTH).cloned().collect();
        Sequences { rng: StdRng::seed_from_u64(seed), lengths, exclude }
    }

    /// The next sequence not excluded.
    pub fn next_sequence(&mut self) -> Vec<u8> {
        loop {
            let len = self.rng.gen_range(self.lengths.clone());
            let s: Vec<u8> = (0..len).map(|_| self.rng.gen_range(0..10)).collect();
            if !self.exclude.contains(&s) {
                return s;
            }
        }
    }

    /// `n` sequences.
    pub fn take(&mut self, n: usize) -> Vec<Vec<u8>> {
        (0..n).map(|_| self.next_sequence()).collect()
    }
}

/// `n` distinct sequences with lengths in `lengths`, from `seed`: a held-out set.
pub fn held_out(seed: u64, n: usize, lengths: RangeInclusive<usize>) -> Vec<Vec<u8>> {
    let mut seen = HashSet::new();
    let mut gen = Sequences::new(seed, lengths, &[]);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let s = gen.next_sequence();
        if seen.insert(s.clone()) {
            out.push(s);
        }
    }
    out
}

/// The held-out sequences of a configuration (lengths as in training): the validation set, then
/// the test set.
pub fn held_out_set(config: &TrainConfig) -> Vec<Vec<u8>> {
    held_out(config.seed + 1_000, config.held_out, TRAIN_LENGTHS)
}

/// The first `config.validation` held-out sequences: what training watches and what its length
/// was chosen on.
pub fn validation_set(config: &TrainConfig) -> Vec<Vec<u8>> {
    held_out_set(config)[..config.validation].to_vec()
}

/// The held-out sequences after the validation set: looked at once, for the final figures.
pub fn test_set(config: &TrainConfig) -> Vec<Vec<u8>> {
    held_out_set(config)[config.validation..].to_vec()
}

/// The sequences training draws, in order: seeded by `config.seed`, never one of the held-out
/// sequences of 4 or more digits.
pub fn training_stream(config: &TrainConfig) -> Sequences {
    Sequences::new(config.seed, TRAIN_LENGTHS, &held_out_set(config))
}

/// 400 distinct sequences of 11-14 digits, longer than any in training: how far reversal
/// generalises.
pub fn longer_set(config: &TrainConfig) -> Vec<Vec<u8>> {
    held_out(config.seed + 2_000, 400, LONGER_LENGTHS)
}

/// The batch's ids as dfdx tensors `(batch, len)`.
pub fn ids<Dev: Device<f32>>(dev: &Dev, rows: &[Vec<usize>]) -> Tensor<(usize, usize), usize, Dev> {
    let len = rows.first().map_or(0, Vec::len);
    dev.tensor_from_vec(rows.concat(), (rows.len(), len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_example_tokens_of_3_1_4() {
        assert_eq!(tokens(&[3, 1, 4]), (vec![6, 4, 7], vec![SOS, 7, 4, 6], vec![7, 4, 6, EOS]));
    }

    #[test]
    fn batches_are_padded_and_training_never_sees_held_out() {
        let b = Batch::new(&[vec![1, 2], vec![5]]);
        assert_eq!(b.src, vec![vec![4, 5], vec![8, PAD]]);
        assert_eq!(b.tgt_out, vec![vec![5, 4, EOS], vec![8, EOS, PAD]]);
        assert_eq!(b.real_targets(), 5);
        let test = held_out(7, 500, 3..=5);
        let mut train = Sequences::new(8, 3..=5, &test);
        let drawn = train.take(3000);
        assert!(drawn.iter().filter(|s| s.len() >= UNSEEN_FROM_LENGTH).all(|s| !test.contains(s)));
        assert!(
            drawn.iter().any(|s| s.len() == 3 && test.contains(s)),
            "short ones cannot be kept out"
        );
    }
}

//! The configuration this chapter runs, by name: the model's sizes and the training run the book
//! reports. Every other file takes its numbers from here.

use ch05_blocks::{PostNorm, Seq2Seq};

use crate::config::TrainConfig;
use crate::vocab::VOCAB;

// ANCHOR: reverser
/// Width of every token vector.
pub const D_MODEL: usize = 64;
/// Attention heads, each of `D_MODEL / HEADS` = 16 dimensions.
pub const HEADS: usize = 4;
/// Width of the feed-forward networks' hidden layer.
pub const D_FF: usize = 128;
/// Encoder blocks, and as many decoder blocks.
pub const LAYERS: usize = 2;

/// Chapter 5's [`Seq2Seq`] with 13 tokens on both sides and the sizes above, post-norm:
/// 169,933 parameters.
pub type Reverser<Dev> =
    Seq2Seq<VOCAB, VOCAB, D_MODEL, HEADS, { D_MODEL / HEADS }, D_FF, LAYERS, PostNorm, f32, Dev>;
// ANCHOR_END: reverser

/// Positions the model accepts: the target is one token longer than the source.
pub const MAX_LEN: usize = 24;
/// The longest input: one position is left for the target's `EOS` (or `SOS`).
pub const MAX_DIGITS: usize = MAX_LEN - 1;

impl TrainConfig {
    // ANCHOR: config
    /// The run the book reports, chosen for the chapter's goals (99 % of the test sequences
    /// exactly reversed, in about a minute on two CPU cores): 1,000 steps of 64 sequences, the
    /// warm-up and inverse-square-root schedule of Vaswani et al. (2017) peaking at Adam's usual
    /// `1e-3`, no label smoothing (the task has one right answer), no dropout.
    pub fn reversal() -> Self {
        TrainConfig {
            seed: 0,
            steps: 1000,
            batch_size: 64,
            peak_lr: 1e-3,
            warmup_steps: 200,
            label_smoothing: 0.0,
            dropout: 0.0,
            held_out: 1000,
            validation: 200,
            eval_every: 100,
        }
    }
    // ANCHOR_END: config
}

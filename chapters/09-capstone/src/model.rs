//! The model: chapter 5's encoder-decoder, sized to 169,933 parameters.

use ch05_blocks::{PostNorm, Seq2Seq};
use dfdx::prelude::*;

use crate::vocab::VOCAB;

// ANCHOR: reverser
/// Chapter 5's [`Seq2Seq`] with 13 tokens on both sides, `d_model` 64, 4 heads of 16, a
/// feed-forward width of 128, 2 encoder and 2 decoder blocks, post-norm: 169,933 parameters.
pub type Reverser<Dev> = Seq2Seq<VOCAB, VOCAB, 64, 4, 16, 128, 2, PostNorm, f32, Dev>;
// ANCHOR_END: reverser

/// Positions the model accepts: the target is one token longer than the source.
pub const MAX_LEN: usize = 24;
/// The longest input: one position is left for the target's `EOS` (or `SOS`).
pub const MAX_DIGITS: usize = MAX_LEN - 1;

/// A fresh model from `dev`'s generator, accepting [`MAX_LEN`] positions, with `dropout`.
pub fn new_model<Dev: Device<f32>>(dev: &Dev, dropout: f32) -> Reverser<Dev> {
    let mut model = Reverser::new(dev);
    model.max_len = MAX_LEN;
    model.dropout = dropout;
    for layer in &mut model.encoder.layers {
        layer.dropout = dropout;
        layer.ffn.dropout = dropout;
    }
    for layer in &mut model.decoder.layers {
        layer.dropout = dropout;
        layer.ffn.dropout = dropout;
    }
    model
}

/// The parameters of the model, part by part, as the page derives them.
pub fn parameter_parts() -> [(&'static str, usize); 6] {
    let (v, d, f) = (VOCAB, 64, 128);
    let attention = 4 * (d * d + d); // W_q, W_k, W_v, W_o with biases
    let ffn = (d * f + f) + (f * d + d);
    let norm = 2 * d;
    [
        ("source embedding", v * d),
        ("target embedding", v * d),
        ("encoder block (x2)", attention + ffn + 2 * norm),
        ("decoder block (x2)", 2 * attention + ffn + 3 * norm),
        ("output projection", d * v + v),
        ("positions (sinusoidal)", 0),
    ]
}

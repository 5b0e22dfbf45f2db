//! The model: chapter 5's encoder-decoder at the sizes of [`presets`](crate::presets), built
//! fresh, and its parameter table.

use dfdx::prelude::*;
use support::params::{Count, ParamTable};

use crate::presets::{Reverser, D_FF, D_MODEL, LAYERS, MAX_LEN};
use crate::vocab::VOCAB;

/// A fresh model from `dev`'s generator, accepting [`MAX_LEN`] positions, with `dropout`.
pub fn new_model<Dev: Device<f32>>(dev: &Dev, dropout: f32) -> Reverser<Dev> {
    let mut model = Reverser::new(dev);
    model.max_len = MAX_LEN;
    model.set_dropout(dropout);
    model
}

/// The parameter table of the page, built from the model's sizes: every formula evaluates to
/// its number, and `worked_example_parameters` checks each row against dfdx's count of that part.
pub fn parameter_table() -> ParamTable {
    let n = Count::n;
    let (v, d, f) = (VOCAB, D_MODEL, D_FF);
    let linear = |i: usize, o: usize| n(i) * n(o) + n(o);
    // W_q, W_k, W_v, W_o with biases; Linear(d, d_ff) and Linear(d_ff, d); a scale and a shift
    let attention = || n(4) * (n(d) * n(d) + n(d));
    let ffn = || linear(d, f) + linear(f, d);
    let norms = |k: usize| n(k) * n(2) * n(d);
    let encoder_block = attention() + ffn() + norms(2);
    let decoder_block = n(2) * attention() + ffn() + norms(3);
    let (enc, dec) = (encoder_block.value(), decoder_block.value());
    ParamTable::default()
        .part("source embedding", n(v) * n(d))
        .part("target embedding", n(v) * n(d))
        .detail("one encoder block: self-attention, feed-forward, 2 norms", encoder_block)
        .part("2 encoder blocks", n(LAYERS) * n(enc))
        .detail(
            "one decoder block: self- and cross-attention, feed-forward, 3 norms",
            decoder_block,
        )
        .part("2 decoder blocks", n(LAYERS) * n(dec))
        .part("output projection", linear(d, v))
        .part("positions: chapter 4's sines and cosines", n(0))
}

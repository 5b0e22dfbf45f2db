//! The chapter's figures, built from the same functions the text runs. `cargo xtask figures`
//! writes them into the book; the notebook shows them inline.

use crate::weightless::{tokens, EMBEDDINGS, WORDS, WORKED_TOKENS};
use crate::{attention_with_fill, broadcast_mask, causal_allowed, scaling, simple_self_attention};
use dfdx::prelude::*;
use support::{BarChart, Heatmap};

/// Weights of the three-token worked example.
pub fn worked_weights<Dev: Device<f32>>(dev: &Dev) -> Heatmap {
    let att = simple_self_attention(&tokens(dev, &WORKED_TOKENS));
    Heatmap::new("Weightless attention, worked example", att.weights.as_vec(), 3, 3)
        .labels(&["x0", "x1", "x2"], &["x0", "x1", "x2"])
        .decimals(Some(3))
        .range(0.0, 1.0)
}

/// Weights of "The cat sat down", with the book's [`EMBEDDINGS`].
pub fn sentence_weights<Dev: Device<f32>>(dev: &Dev) -> Heatmap {
    sentence_weights_of(dev, &EMBEDDINGS)
}

/// Weights of "The cat sat down" for any embeddings of its four words (the notebook's "try it").
// ANCHOR: sentence_heatmap
pub fn sentence_weights_of<Dev: Device<f32>>(dev: &Dev, embeddings: &[[f32; 3]; 4]) -> Heatmap {
    let att = simple_self_attention(&tokens(dev, embeddings));
    Heatmap::new("The cat sat down: attention weights", att.weights.as_vec(), 4, 4)
        .labels(&WORDS, &WORDS)
        .decimals(Some(3))
}
// ANCHOR_END: sentence_heatmap

/// Row 0 of the d_k = 512 experiment, without and with the 1/sqrt(d_k) scale.
pub fn scaling_row<Dev: Device<f32>>(dev: &Dev) -> BarChart {
    let exp = scaling::run::<512, _>(dev, 8, 42);
    let (raw, scaled) = exp.row(0);
    let keys: Vec<String> = (0..8).map(|j| format!("k{j}")).collect();
    BarChart::new("d_k = 512: softmax weights of query 0", &keys)
        .series("unscaled  Q.K", raw.to_vec())
        .series("scaled  Q.K / sqrt(d_k)", scaled.to_vec())
        .y_desc("weight")
        .y_range(0.0, 1.05)
}

/// "The cat sat down" with a look-ahead mask: each word sees itself and the words before it.
pub fn causal_sentence<Dev: Device<f32>>(dev: &Dev) -> Heatmap {
    let x = tokens(dev, &EMBEDDINGS);
    let shape = (1, Const::<1>, 4, Const::<3>);
    let x = x.reshape_like(&shape);
    let mask = broadcast_mask(causal_allowed(dev, 4), 1, Const::<1>);
    let (_, w) =
        attention_with_fill(x.clone(), x.clone(), x, Some(&mask), crate::DEFAULT_MASK_FILL);
    Heatmap::new("The cat sat down, look-ahead mask", w.as_vec(), 4, 4)
        .labels(&WORDS, &WORDS)
        .decimals(Some(3))
        .range(0.0, 1.0)
}

/// Every figure of the chapter with its file name.
pub fn all<Dev: Device<f32>>(dev: &Dev) -> Vec<(&'static str, support::Svg)> {
    vec![
        ("ch01-worked-weights.svg", worked_weights(dev).to_svg()),
        ("ch01-sentence-weights.svg", sentence_weights(dev).to_svg()),
        ("ch01-scaling.svg", scaling_row(dev).to_svg()),
        ("ch01-causal.svg", causal_sentence(dev).to_svg()),
    ]
}

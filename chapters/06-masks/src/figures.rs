//! The chapter's figures: the causal, padding and combined masks, and attention weights under a
//! mask. `cargo run -p ch06-masks --example ch06-figures` writes them into the book.

use ch01_attention::scaled_dot_product_attention;
use dfdx::prelude::*;
use support::{normal_tensor, Dev, Heatmap};

use crate::{
    causal_allowed, decoder_self_mask, padding_blocked, rows01, rows01_of, PAD, SEQUENCES, TARGETS,
};

/// The tokens of a sequence as labels, `PAD` for the padding id.
pub fn token_labels(ids: &[usize]) -> Vec<String> {
    ids.iter().map(|&t| if t == PAD { "PAD".to_string() } else { t.to_string() }).collect()
}

fn mask_heatmap(title: &str, rows: Vec<Vec<u8>>) -> Heatmap {
    let (r, c) = (rows.len(), rows[0].len());
    let values = rows.into_iter().flatten().map(f32::from).collect();
    Heatmap::new(title, values, r, c).decimals(Some(0)).range(0.0, 1.0)
}

/// The causal mask for 5 tokens, 1 = may attend.
pub fn causal() -> Heatmap {
    let dev = Dev::default();
    mask_heatmap("causal mask, 1 = may attend", rows01(&causal_allowed(&dev, 5)))
        .axes("key position", "query position")
}

/// The padding mask of the three sequences, 1 = padding (`nn.MultiheadAttention`'s
/// `key_padding_mask` polarity).
pub fn padding() -> Heatmap {
    let dev = Dev::default();
    let rows = padding_blocked(&dev, &SEQUENCES, PAD).rows01();
    mask_heatmap("padding mask of the three sequences, 1 = PAD", rows).axes("position", "sequence")
}

/// The decoder mask of the first target `[1, 5, 8, 3, PAD, PAD]`, 1 = may attend.
pub fn combined() -> Heatmap {
    let dev = Dev::default();
    let mask = decoder_self_mask(&dev, &TARGETS, PAD, Const::<1>);
    let tokens = token_labels(&TARGETS[0]);
    mask_heatmap("causal AND not padding, 1 = may attend", rows01_of(&mask, 0, 0))
        .labels(&tokens, &tokens)
        .axes("key", "query")
}

// ANCHOR: masked_weights
/// Attention weights of seeded random queries and keys (one head, `d_k = 8`) under the decoder
/// mask of the first target: zero above the diagonal and in the PAD columns.
pub fn masked_weights_values() -> Vec<f32> {
    let dev = Dev::default();
    let mask = decoder_self_mask(&dev, &TARGETS[..1], PAD, Const::<1>); // (1, 1, 6, 6)
    let shape = (1, Const::<1>, 6, Const::<8>);
    let (q, k) = (normal_tensor(&dev, 1, shape), normal_tensor(&dev, 2, shape));
    let (_, weights) = scaled_dot_product_attention(q, k.clone(), k, Some(&mask));
    weights.as_vec()
}
// ANCHOR_END: masked_weights

/// [`masked_weights_values`] as a heatmap.
pub fn masked_weights() -> Heatmap {
    let tokens = token_labels(&TARGETS[0]);
    Heatmap::new("attention weights under the decoder mask", masked_weights_values(), 6, 6)
        .labels(&tokens, &tokens)
        .range(0.0, 1.0)
}

/// Every figure of the chapter with its file name.
pub fn all() -> Vec<(&'static str, support::Svg)> {
    vec![
        ("ch06-causal.svg", causal().to_svg()),
        ("ch06-padding.svg", padding().to_svg()),
        ("ch06-combined.svg", combined().to_svg()),
        ("ch06-masked-weights.svg", masked_weights().to_svg()),
    ]
}

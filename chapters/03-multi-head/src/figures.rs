//! The chapter's figures: per-head weights of a seeded layer, and a cross-attention map.

use crate::{average_heads, Mha16x4, Mha64x8};
use dfdx::prelude::*;
use support::Heatmap;

/// A seeded 4-head layer (d_model 16) on 6 seeded tokens: the weights of every head. `dev` is a
/// fresh device seeded with 0 for the book's figures.
// ANCHOR: per_head
pub fn per_head<Dev: Device<f32>>(dev: &Dev) -> Vec<Heatmap> {
    let mha = Mha16x4::new(dev);
    let x = support::normal_tensor(dev, 7, (1, 6, Const::<16>));
    let (_, w) = mha.self_attention(x, None);
    let w = w.as_vec(); // (1, 4, 6, 6)
    (0..4)
        .map(|h| {
            Heatmap::new(format!("head {}", h + 1), w[h * 36..(h + 1) * 36].to_vec(), 6, 6)
                .range(0.0, 1.0)
        })
        .collect()
}
// ANCHOR_END: per_head

/// Cross-attention: 8 decoder positions over 10 encoder positions, averaged over the heads. On a
/// fresh device seeded with 0 it is the layer and the inputs of the `cross` example.
pub fn cross<Dev: Device<f32>>(dev: &Dev) -> Heatmap {
    let mha = Mha64x8::new(dev);
    let dec = support::normal_tensor(dev, 2, (2, 8, Const::<64>));
    let enc = support::normal_tensor(dev, 3, (2, 10, Const::<64>));
    let (_, w) = mha.forward(dec, enc.clone(), enc, None);
    let avg = average_heads(w).as_vec();
    Heatmap::new("cross-attention, sequence 0 (mean of 8 heads)", avg[..80].to_vec(), 8, 10)
        .axes("encoder position (key)", "decoder position (query)")
        .decimals(None)
}

/// Every figure with its file name, each drawn on a fresh device seeded with 0 (as the example and
/// the notebook make theirs), so no figure depends on what another drew before it.
pub fn all() -> Vec<(String, support::Svg)> {
    let mut out: Vec<(String, support::Svg)> = per_head(&support::seeded_device(0))
        .iter()
        .enumerate()
        .map(|(h, m)| (format!("ch03-head-{}.svg", h + 1), m.to_svg()))
        .collect();
    out.push(("ch03-cross.svg".into(), cross(&support::seeded_device(0)).to_svg()));
    out
}

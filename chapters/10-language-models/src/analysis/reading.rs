//! Reading the trained model's attention: how much each head puts on the first position of its
//! window (an "attention sink", Xiao et al. 2023), and how attention falls off with the distance
//! between query and key, which is all RoPE lets a score depend on besides the two tokens.

use dfdx::prelude::*;

use crate::llama::presets::TinyLlama;

/// Queries closer than this to the window's start are left out: with few keys to choose from,
/// any head puts much of its weight on the first.
pub const SKIP_QUERIES: usize = 16;

/// The attention weights of every layer for `windows` windows of `context` ids: per layer, a
/// `(windows, heads, context, context)` tensor as plain numbers.
pub fn layer_weights<Dev: Device<f32>>(
    model: &TinyLlama<Dev>,
    dev: &Dev,
    ids: &[usize],
    windows: usize,
    context: usize,
) -> Vec<Vec<f32>> {
    assert!(ids.len() >= windows * context, "layer_weights: not enough text for the windows");
    let input = dev.tensor_from_vec(ids[..windows * context].to_vec(), (windows, context));
    model.forward(input).weights.into_iter().map(|w| w.as_vec()).collect()
}

/// One head's use of the first position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sink {
    pub layer: usize,
    pub head: usize,
    /// mean weight on position 0, over the queries from [`SKIP_QUERIES`] on
    pub first: f64,
    /// what a head spreading its weight evenly over the keys it may see would put there
    pub uniform: f64,
}

/// [`Sink`] of every head of every layer, from [`layer_weights`]' output.
// ANCHOR: sinks
pub fn sinks(weights: &[Vec<f32>], heads: usize, context: usize) -> Vec<Sink> {
    let queries = SKIP_QUERIES..context;
    let uniform = queries.clone().map(|i| 1.0 / (i + 1) as f64).sum::<f64>() / queries.len() as f64;
    let mut out = Vec::new();
    for (layer, w) in weights.iter().enumerate() {
        let windows = w.len() / (heads * context * context);
        for head in 0..heads {
            let mut total = 0.0;
            for b in 0..windows {
                let map = &w[(b * heads + head) * context * context..][..context * context];
                total += queries.clone().map(|i| map[i * context] as f64).sum::<f64>();
            }
            let first = total / (windows * queries.len()) as f64;
            out.push(Sink { layer, head, first, uniform });
        }
    }
    out
}
// ANCHOR_END: sinks

/// The mean weight a query gives the key `offset` positions back, for offsets `0..=max_offset`,
/// per layer: averaged over heads, windows and the queries from `max(SKIP_QUERIES, max_offset +
/// 1)` on, so that no offset reaches back to the first position.
pub fn by_offset(weights: &[Vec<f32>], context: usize, max_offset: usize) -> Vec<Vec<f64>> {
    let start = SKIP_QUERIES.max(max_offset + 1);
    let mean_at = |w: &[f32], offset: usize| {
        let maps = w.len() / (context * context);
        let total: f64 = w
            .chunks(context * context)
            .map(|map| (start..context).map(|i| map[i * context + i - offset] as f64).sum::<f64>())
            .sum();
        total / (maps * (context - start)) as f64
    };
    weights.iter().map(|w| (0..=max_offset).map(|d| mean_at(w, d)).collect()).collect()
}

//! Qwen3-Next's attention layer: this chapter's QK-normed grouped-query attention (Qwen3's
//! per-head RMSNorm) with a gate on its output.

use ch10_language_models::llama::gqa::Tokens;
use ch10_language_models::{LayerCache, Rope};
use dfdx::nn::Module;
use dfdx::prelude::*;

use crate::mla::products::{linear, Weight, Weights};
use crate::qk_norm::NormedAttention;

/// Grouped-query attention with QK-norm and an output gate.
#[derive(Clone, Debug)]
pub struct GatedAttention<
    const HIDDEN: usize,
    const HEADS: usize,
    const KV_HEADS: usize,
    const HEAD_DIM: usize,
    const KV_WIDTH: usize,
    Dev: Device<f32>,
> {
    pub attention: NormedAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, Dev>,
    /// The gate's projection: the other half of Qwen3-Next's `q_proj`.
    pub gate: Weight<HIDDEN, HIDDEN, Dev>,
    pub rope: Rope,
}

impl<
        const HIDDEN: usize,
        const HEADS: usize,
        const KV_HEADS: usize,
        const HEAD_DIM: usize,
        const KV_WIDTH: usize,
        Dev: Device<f32>,
    > GatedAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, Dev>
{
    /// New tokens from position `start`; with a cache, their keys and values join it first.
    // ANCHOR: gated
    fn run(
        &self,
        x: Tokens<HIDDEN, Dev>,
        cache: Option<&mut LayerCache<KV_HEADS, HEAD_DIM, Dev>>,
    ) -> (Tokens<HIDDEN, Dev>, Weights<HEADS, Dev>) {
        let start = cache.as_ref().map_or(0, |c| c.next_position());
        let queries = start..start + x.shape().1;
        let gate = linear(x.clone(), &self.gate).sigmoid(); // (b, s, HEADS·HEAD_DIM), each in (0, 1)
        let (q, k, v) = self.attention.project(x, &self.rope, start);
        let (k, v, keys) = match cache {
            Some(c) => c.append(k, v),
            None => (k, v, queries.clone()),
        };
        // chapter 10's attention, before its output projection
        let (heads, weights) = self.attention.gqa.attend_heads(q, k, v, queries, keys, None);
        (self.attention.gqa.o_proj.forward(heads * gate), weights)
    }
    // ANCHOR_END: gated

    /// The whole sequence at once, causal.
    pub fn forward(&self, x: Tokens<HIDDEN, Dev>) -> (Tokens<HIDDEN, Dev>, Weights<HEADS, Dev>) {
        self.run(x, None)
    }

    /// New tokens against chapter 10's cache.
    pub fn forward_cached(
        &self,
        x: Tokens<HIDDEN, Dev>,
        cache: &mut LayerCache<KV_HEADS, HEAD_DIM, Dev>,
    ) -> (Tokens<HIDDEN, Dev>, Weights<HEADS, Dev>) {
        self.run(x, Some(cache))
    }
}

//! Multi-head latent attention (DeepSeek-AI 2024, DeepSeek-V2): queries, keys and values come
//! through low-rank compressions, and the cache holds one compressed latent per token plus one
//! rotary key shared by every head.
//!
//! The matrices carry the paper's names: `W^DQ` compresses the input for the queries and `W^UQ`
//! expands it per head; `W^DKV` compresses the input into the latent `c` that is cached, and
//! `W^UK`, `W^UV` expand it into each head's keys and values; `W^QR` and `W^KR` give the parts
//! that RoPE turns, the key's part shared by the heads ("decoupled RoPE"); `W^O` mixes the heads.
//! Per-head matrices are stored `(HEADS, in, out)`, so one batched product serves every head.
//!
//! The book writes vectors as columns and a matrix before the vector it acts on, `k = W^UK c`;
//! the code multiplies rows of tokens by the stored matrices, `c · k_up`, so each stored
//! per-head matrix is the book's matrix transposed (`k_up[h]` is `(W^UK_h)^T`). The doc
//! comments below use the book's notation.

use std::ops::Range;

use ch10_language_models::{RmsNorm, Rope};
use dfdx::prelude::*;

use super::products::{
    causal_softmax, dots, each_head, linear, per_head, HeadMatrices, PerHead, Rows, Weight, Weights,
};

/// Multi-head latent attention with `HEADS` heads on a `HIDDEN`-wide stream: queries through a
/// `Q_RANK` compression, keys and values through a `KV_RANK` latent; each head's query and key
/// have `NOPE` features without position and `ROPE` turned by RoPE, its value `V`.
///
/// DeepSeek-V2-Lite: `HIDDEN` 2048, `HEADS` 16, no query compression, `KV_RANK` 512, `NOPE` 128,
/// `ROPE` 64, `V` 128. Hugging Face: `DeepseekV3Attention`.
#[derive(Clone, Debug)]
pub struct LatentAttention<
    const HIDDEN: usize,
    const HEADS: usize,
    const Q_RANK: usize,
    const KV_RANK: usize,
    const NOPE: usize,
    const ROPE: usize,
    const V: usize,
    Dev: Device<f32>,
> {
    /// `W^DQ` (`q_a_proj`), then RMSNorm (`q_a_layernorm`).
    pub q_down: Weight<Q_RANK, HIDDEN, Dev>,
    pub q_norm: RmsNorm<Q_RANK, f32, Dev>,
    /// `W^UQ` and `W^QR` (`q_b_proj`, cut per head into its two parts).
    pub q_up: HeadMatrices<HEADS, Q_RANK, NOPE, Dev>,
    pub q_rope: HeadMatrices<HEADS, Q_RANK, ROPE, Dev>,
    /// `W^DKV` (the first `KV_RANK` rows of `kv_a_proj_with_mqa`), then RMSNorm
    /// (`kv_a_layernorm`): the latent `c` that is cached.
    pub kv_down: Weight<KV_RANK, HIDDEN, Dev>,
    pub kv_norm: RmsNorm<KV_RANK, f32, Dev>,
    /// `W^KR` (the last `ROPE` rows of `kv_a_proj_with_mqa`): the rotary key all heads share.
    pub k_rope: Weight<ROPE, HIDDEN, Dev>,
    /// `W^UK` and `W^UV` (`kv_b_proj`, cut per head).
    pub k_up: HeadMatrices<HEADS, KV_RANK, NOPE, Dev>,
    pub v_up: HeadMatrices<HEADS, KV_RANK, V, Dev>,
    /// `W^O` (`o_proj`, cut per head): head `h`'s share of the output.
    pub o: HeadMatrices<HEADS, V, HIDDEN, Dev>,
    /// RoPE on the `ROPE` features; DeepSeek turns interleaved pairs.
    pub rope: Rope,
}

/// Every head's expanded keys and values, `(batch, HEADS, seq, width)`: the key's `NOPE`
/// features, its copy of the shared turned key, and the value.
#[derive(Clone, Debug)]
pub struct HeadKeysValues<
    const HEADS: usize,
    const NOPE: usize,
    const ROPE: usize,
    const V: usize,
    Dev: Device<f32>,
> {
    pub k_nope: PerHead<HEADS, NOPE, Dev>,
    pub k_rot: PerHead<HEADS, ROPE, Dev>,
    pub values: PerHead<HEADS, V, Dev>,
}

/// What one token leaves in the cache: the latent `c` and the turned shared key.
#[derive(Clone, Debug)]
pub struct Latents<const KV_RANK: usize, const ROPE: usize, Dev: Device<f32>> {
    pub latent: Rows<KV_RANK, Dev>,
    pub k_rot: Rows<ROPE, Dev>,
}

impl<
        const HIDDEN: usize,
        const HEADS: usize,
        const Q_RANK: usize,
        const KV_RANK: usize,
        const NOPE: usize,
        const ROPE: usize,
        const V: usize,
        Dev: Device<f32>,
    > LatentAttention<HIDDEN, HEADS, Q_RANK, KV_RANK, NOPE, ROPE, V, Dev>
{
    /// `1 / sqrt(NOPE + ROPE)`: a head's query and key are `NOPE + ROPE` wide.
    pub fn scale(&self) -> f32 {
        1.0 / ((NOPE + ROPE) as f32).sqrt()
    }

    /// The compressed query `c_q = RMSNorm(W^DQ x)`, `(b, s, Q_RANK)`.
    pub fn query_latent(&self, x: &Rows<HIDDEN, Dev>) -> Rows<Q_RANK, Dev> {
        self.q_norm.forward(linear(x.clone(), &self.q_down))
    }

    /// Each head's query without position (`W^UQ c_q`) and turned (`RoPE(W^QR c_q)`), the
    /// first token at position `start`.
    pub fn queries(
        &self,
        x: &Rows<HIDDEN, Dev>,
        start: usize,
    ) -> (PerHead<HEADS, NOPE, Dev>, PerHead<HEADS, ROPE, Dev>) {
        let c_q = self.query_latent(x);
        let q_rot = self.rope.apply(per_head(c_q.clone(), &self.q_rope), start);
        (per_head(c_q, &self.q_up), q_rot)
    }

    /// What the cache keeps of `x`: the latent `c = RMSNorm(W^DKV x)` and the shared key
    /// `RoPE(W^KR x)`, the first token at position `start`.
    pub fn latents(&self, x: &Rows<HIDDEN, Dev>, start: usize) -> Latents<KV_RANK, ROPE, Dev> {
        let latent = self.kv_norm.forward(linear(x.clone(), &self.kv_down));
        let k = linear(x.clone(), &self.k_rope);
        let (b, s, _) = *k.shape();
        let one_head = k.reshape_like(&(b, Const::<1>, s, Const::<ROPE>));
        let k_rot = self.rope.apply(one_head, start).reshape_like(&(b, s, Const::<ROPE>));
        Latents { latent, k_rot }
    }

    /// Every head's key and value expanded from `held`: `W^UK c` beside its own copy of the
    /// shared turned key, and `W^UV c`, as multi-head attention keeps them.
    pub fn expand(
        &self,
        held: &Latents<KV_RANK, ROPE, Dev>,
    ) -> HeadKeysValues<HEADS, NOPE, ROPE, V, Dev> {
        let (b, s, _) = *held.k_rot.shape();
        let every_head = (b, Const::<HEADS>, s, Const::<ROPE>);
        HeadKeysValues {
            k_nope: per_head(held.latent.clone(), &self.k_up),
            k_rot: held.k_rot.clone().broadcast_like::<_, Axis<1>>(&every_head).contiguous(),
            values: per_head(held.latent.clone(), &self.v_up),
        }
    }

    /// Ordinary multi-head attention over expanded keys and values: the queries at positions
    /// `queries` against the keys at `keys`. Gives the output and the weights.
    // ANCHOR: keys_values
    pub fn attend_keys_values(
        &self,
        (q_nope, q_rot): (PerHead<HEADS, NOPE, Dev>, PerHead<HEADS, ROPE, Dev>),
        kv: &HeadKeysValues<HEADS, NOPE, ROPE, V, Dev>,
        queries: Range<usize>,
        keys: Range<usize>,
    ) -> (Rows<HIDDEN, Dev>, Weights<HEADS, Dev>) {
        let scores = dots(q_nope, kv.k_nope.clone()) + dots(q_rot, kv.k_rot.clone());
        let weights = causal_softmax(scores * self.scale(), queries, keys);
        let heads = weights.clone().matmul(kv.values.clone()); // (b, H, s, V)
        (each_head(heads, &self.o).sum::<_, Axis<1>>(), weights)
    }
    // ANCHOR_END: keys_values

    /// The plain form, as Hugging Face's `DeepseekV3Attention` runs it: every head's keys and
    /// values expanded from all the held latents, then ordinary attention.
    // ANCHOR: expanded
    pub fn attend_expanded(
        &self,
        queries_now: (PerHead<HEADS, NOPE, Dev>, PerHead<HEADS, ROPE, Dev>),
        held: &Latents<KV_RANK, ROPE, Dev>,
        queries: Range<usize>,
        keys: Range<usize>,
    ) -> (Rows<HIDDEN, Dev>, Weights<HEADS, Dev>) {
        self.attend_keys_values(queries_now, &self.expand(held), queries, keys)
    }
    // ANCHOR_END: expanded

    /// The whole sequence at once, causal, in the plain form.
    pub fn forward(&self, x: &Rows<HIDDEN, Dev>) -> (Rows<HIDDEN, Dev>, Weights<HEADS, Dev>) {
        let n = x.shape().1;
        self.attend_expanded(self.queries(x, 0), &self.latents(x, 0), 0..n, 0..n)
    }
}

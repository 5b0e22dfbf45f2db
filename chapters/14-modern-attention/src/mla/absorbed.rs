//! The absorbed form of multi-head latent attention: no head's keys or values are ever expanded.
//!
//! In the book's notation (vectors as columns; the stored matrices are these transposed, see
//! `attention.rs`): head `h`'s score is `q_h · k_h = (W^UQ_h c_q) · (W^UK_h c) + q_rot_h · k_rot`,
//! and the first term equals `((W^UK_h)^T W^UQ_h c_q) · c`: the key's expansion folds into the
//! query's, once, at load time, and the query meets the cached latent `c` directly. Likewise the
//! output `Σ_s p_s W^O_h W^UV_h c_s = (W^O_h W^UV_h) Σ_s p_s c_s`: the weighted latents go
//! through one folded matrix per head. Attention then reads only what the cache holds,
//! `KV_RANK + ROPE` numbers per token, whatever the number of heads.
//!
//! The folded matrices can be multiplied out once ([`LatentAttention::absorb`]) or the factors
//! applied to the one token in turn ([`LatentAttention::attend_absorbed_in_turn`], as DeepSeek's
//! own inference code does). Both give the same numbers; per token the second does fewer
//! multiply-adds and reads fewer weights, since `W^UQ_h` then `(W^UK_h)^T` is
//! `Q_RANK × NOPE + NOPE × KV_RANK` where the product is `Q_RANK × KV_RANK`, and likewise for the
//! output.

use std::ops::Range;

use dfdx::prelude::*;

use super::attention::{LatentAttention, Latents};
use super::products::{
    causal_softmax, dots_shared, each_head, mix_shared, per_head, HeadMatrices, PerHead, Rows,
};

/// The folded matrices of one layer, `(W^UK_h)^T W^UQ_h` and `W^O_h W^UV_h` for every head, each
/// stored transposed (`(in, out)`, as every per-head matrix here).
#[derive(Clone, Debug)]
pub struct Absorbed<
    const HIDDEN: usize,
    const HEADS: usize,
    const Q_RANK: usize,
    const KV_RANK: usize,
    Dev: Device<f32>,
> {
    /// `(HEADS, Q_RANK, KV_RANK)`: a compressed query to a query in the latent's space.
    pub q_to_latent: HeadMatrices<HEADS, Q_RANK, KV_RANK, Dev>,
    /// `(HEADS, KV_RANK, HIDDEN)`: a weighted latent to the head's share of the output.
    pub latent_to_out: HeadMatrices<HEADS, KV_RANK, HIDDEN, Dev>,
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
    /// Folds `W^UK` into the query's expansion and `W^UV` into the output's.
    // ANCHOR: absorb
    pub fn absorb(&self) -> Absorbed<HIDDEN, HEADS, Q_RANK, KV_RANK, Dev> {
        let k_up_t = self.k_up.clone().permute::<_, Axes3<0, 2, 1>>(); // (H, NOPE, KV_RANK)
        Absorbed {
            q_to_latent: self.q_up.clone().matmul(k_up_t),
            latent_to_out: self.v_up.clone().matmul(self.o.clone()),
        }
    }
    // ANCHOR_END: absorb

    /// Attention straight over the latents with the folded matrices multiplied out: the queries
    /// of `x` (the first at position `queries.start`) against the `held` latents at positions
    /// `keys`.
    // ANCHOR: absorbed
    pub fn attend_absorbed(
        &self,
        folded: &Absorbed<HIDDEN, HEADS, Q_RANK, KV_RANK, Dev>,
        x: &Rows<HIDDEN, Dev>,
        held: &Latents<KV_RANK, ROPE, Dev>,
        queries: Range<usize>,
        keys: Range<usize>,
    ) -> Rows<HIDDEN, Dev> {
        let c_q = self.query_latent(x);
        let q_rot = self.rope.apply(per_head(c_q.clone(), &self.q_rope), queries.start);
        // each head's query in the latent's space, (b, H, s, KV_RANK)
        let q_latent = per_head(c_q, &folded.q_to_latent);
        let mixed = self.over_latents(q_latent, q_rot, held, queries, keys);
        each_head(mixed, &folded.latent_to_out).sum::<_, Axis<1>>()
    }
    // ANCHOR_END: absorbed

    /// The same attention with the factors applied in turn: the query expanded by `W^UQ`, then
    /// taken into the latent's space by `(W^UK)^T`; the weighted latents expanded by `W^UV`, then
    /// mixed by `W^O`. Nothing is multiplied out beforehand.
    // ANCHOR: in_turn
    pub fn attend_absorbed_in_turn(
        &self,
        x: &Rows<HIDDEN, Dev>,
        held: &Latents<KV_RANK, ROPE, Dev>,
        queries: Range<usize>,
        keys: Range<usize>,
    ) -> Rows<HIDDEN, Dev> {
        let (q_nope, q_rot) = self.queries(x, queries.start);
        let k_up_t = self.k_up.clone().permute::<_, Axes3<0, 2, 1>>(); // (H, NOPE, KV_RANK)
        let q_latent = each_head(q_nope, &k_up_t);
        let mixed = self.over_latents(q_latent, q_rot, held, queries, keys);
        each_head(each_head(mixed, &self.v_up), &self.o).sum::<_, Axis<1>>()
    }
    // ANCHOR_END: in_turn

    /// Every head's weighted latents, `(b, H, s, KV_RANK)`, for its query in the latent's space
    /// and its turned query. Every head meets the same latents, so the heads are the rows of one
    /// product.
    // ANCHOR: over_latents
    pub fn over_latents(
        &self,
        q_latent: PerHead<HEADS, KV_RANK, Dev>,
        q_rot: PerHead<HEADS, ROPE, Dev>,
        held: &Latents<KV_RANK, ROPE, Dev>,
        queries: Range<usize>,
        keys: Range<usize>,
    ) -> PerHead<HEADS, KV_RANK, Dev> {
        let scores = dots_shared(q_latent, &held.latent) + dots_shared(q_rot, &held.k_rot);
        let weights = causal_softmax(scores * self.scale(), queries, keys);
        mix_shared(weights, &held.latent)
    }
    // ANCHOR_END: over_latents
}

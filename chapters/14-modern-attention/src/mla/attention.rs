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

use ch01_attention::{broadcast_mask, DEFAULT_MASK_FILL};
use ch10_language_models::{positions_allowed, RmsNorm, Rope};
use dfdx::prelude::*;

/// Tokens of width `W`: `(batch, seq, W)`.
pub type Rows<const W: usize, Dev> = Tensor<(usize, usize, Const<W>), f32, Dev>;
/// Every head's vectors of width `W`: `(batch, HEADS, seq, W)`.
pub type PerHead<const H: usize, const W: usize, Dev> =
    Tensor<(usize, Const<H>, usize, Const<W>), f32, Dev>;
/// One `(I, O)` matrix per head.
pub type HeadMatrices<const H: usize, const I: usize, const O: usize, Dev> =
    Tensor<(Const<H>, Const<I>, Const<O>), f32, Dev>;
/// A matrix in `nn.Linear`'s layout, `(out, in)`.
pub type Weight<const O: usize, const I: usize, Dev> = Tensor<(Const<O>, Const<I>), f32, Dev>;
/// Attention weights, `(batch, HEADS, queries, keys)`.
pub type Weights<const H: usize, Dev> = Tensor<(usize, Const<H>, usize, usize), f32, Dev>;

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

/// What one token leaves in the cache: the latent `c` and the turned shared key.
#[derive(Clone, Debug)]
pub struct Latents<const KV_RANK: usize, const ROPE: usize, Dev: Device<f32>> {
    pub latent: Rows<KV_RANK, Dev>,
    pub k_rot: Rows<ROPE, Dev>,
}

/// `x W^T` for a weight in `nn.Linear`'s layout.
pub fn linear<const I: usize, const O: usize, Dev: Device<f32>>(
    x: Rows<I, Dev>,
    w: &Weight<O, I, Dev>,
) -> Rows<O, Dev> {
    x.matmul(w.clone().permute::<_, Axes2<1, 0>>())
}

/// Every head's product of the same rows with its own matrix: `(b, s, I)` by `(H, I, O)` gives
/// `(b, H, s, O)`. dfdx's CUDA products refuse a batch broadcast with stride 0, so one side is
/// copied, whichever is smaller: for a few rows (a decoding step) the rows go to every head
/// ([`each_head`]); for many (a prompt, or keys expanded from the whole cache) the heads' matrices
/// stand side by side as one `(I, H·O)` matrix and all rows take one product. Each number is the
/// same dot product either way.
pub fn per_head<const H: usize, const I: usize, const O: usize, Dev: Device<f32>>(
    x: Rows<I, Dev>,
    w: &HeadMatrices<H, I, O, Dev>,
) -> PerHead<H, O, Dev> {
    let (b, s, _) = *x.shape();
    if b * s <= O {
        return each_head(x.broadcast_like::<_, Axis<1>>(&(b, Const::<H>, s, Const::<I>)), w);
    }
    let side_by_side = w.clone().permute::<_, Axes3<1, 0, 2>>().reshape_like(&(Const::<I>, H * O));
    let all = x.matmul(side_by_side).reshape_like(&(b, s, Const::<H>, Const::<O>));
    all.permute::<_, Axes4<0, 2, 1, 3>>()
}

/// Every head's own vectors by its own matrix: `(b, H, s, I)` by `(H, I, O)` gives `(b, H, s, O)`,
/// as one product batched over the heads, each head's `b·s` rows by its matrix. The rows are
/// copied into that order (the reshape copies what is broadcast or permuted); the matrices are
/// used as they are, since dfdx's CUDA products refuse a batch broadcast with stride 0.
pub fn each_head<const H: usize, const I: usize, const O: usize, Dev: Device<f32>>(
    x: PerHead<H, I, Dev>,
    w: &HeadMatrices<H, I, O, Dev>,
) -> PerHead<H, O, Dev> {
    let (b, _, s, _) = *x.shape();
    let rows = x.permute::<_, Axes4<1, 0, 2, 3>>().reshape_like(&(Const::<H>, b * s, Const::<I>));
    let out = rows.matmul(w.clone()).reshape_like(&(Const::<H>, b, s, Const::<O>));
    out.permute::<_, Axes4<1, 0, 2, 3>>()
}

/// `q k^T` for every head: `(b, H, sq, W)` by `(b, H, sk, W)` gives `(b, H, sq, sk)`.
pub fn dots<const H: usize, const W: usize, Dev: Device<f32>>(
    q: PerHead<H, W, Dev>,
    k: PerHead<H, W, Dev>,
) -> Weights<H, Dev> {
    q.matmul(k.permute::<_, Axes4<0, 1, 3, 2>>())
}

/// Every head's queries against one set of keys that all heads share, as one product:
/// `(b, H, sq, W)` seen as `(b, H·sq, W)` by `(b, sk, W)` gives the scores `(b, H, sq, sk)`.
/// With one shared key per token, the heads are simply more query rows (as in multi-query
/// attention, chapter 10).
pub fn dots_shared<const H: usize, const W: usize, Dev: Device<f32>>(
    q: PerHead<H, W, Dev>,
    k: &Rows<W, Dev>,
) -> Weights<H, Dev> {
    let (b, _, sq, _) = *q.shape();
    let sk = k.shape().1;
    let rows = q.reshape_like(&(b, H * sq, Const::<W>));
    rows.matmul(k.clone().permute::<_, Axes3<0, 2, 1>>()).reshape_like(&(b, Const::<H>, sq, sk))
}

/// Every head's weights over one set of shared values, as one product: `(b, H, sq, sk)` by
/// `(b, sk, W)` gives `(b, H, sq, W)`.
pub fn mix_shared<const H: usize, const W: usize, Dev: Device<f32>>(
    weights: Weights<H, Dev>,
    v: &Rows<W, Dev>,
) -> PerHead<H, W, Dev> {
    let (b, _, sq, sk) = *weights.shape();
    let rows = weights.reshape_like(&(b, H * sq, sk));
    rows.matmul(v.clone()).reshape_like(&(b, Const::<H>, sq, Const::<W>))
}

/// The causal softmax of `scores` for queries at `queries` over keys at `keys`.
pub fn causal_softmax<const H: usize, Dev: Device<f32>>(
    scores: Weights<H, Dev>,
    queries: Range<usize>,
    keys: Range<usize>,
) -> Weights<H, Dev> {
    masked(scores, queries, keys, None).softmax::<Axis<3>>()
}

/// `scores` with every key a query may not see (a later one, or one `window` or more positions
/// back) set to chapter 1's fill, ready for a softmax.
pub fn masked<const H: usize, Dev: Device<f32>>(
    scores: Weights<H, Dev>,
    queries: Range<usize>,
    keys: Range<usize>,
    window: Option<usize>,
) -> Weights<H, Dev> {
    let shape = *scores.shape();
    let dev = scores.device().clone();
    let mask = broadcast_mask(positions_allowed(&dev, queries, keys, window), shape.0, Const::<H>);
    let fill = dev.tensor(DEFAULT_MASK_FILL).broadcast_like(&shape);
    mask.choose(scores, fill)
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

    /// The plain form: every head's keys `W^UK c` (beside the shared turned key) and values
    /// `W^UV c` are expanded from the latents, then ordinary attention.
    // ANCHOR: expanded
    pub fn attend_expanded(
        &self,
        (q_nope, q_rot): (PerHead<HEADS, NOPE, Dev>, PerHead<HEADS, ROPE, Dev>),
        held: &Latents<KV_RANK, ROPE, Dev>,
        queries: Range<usize>,
        keys: Range<usize>,
    ) -> (Rows<HIDDEN, Dev>, Weights<HEADS, Dev>) {
        let k_nope = per_head(held.latent.clone(), &self.k_up); // (b, H, t, NOPE)
        let values = per_head(held.latent.clone(), &self.v_up); // (b, H, t, V)
        let scores = dots(q_nope, k_nope) + dots_shared(q_rot, &held.k_rot);
        let weights = causal_softmax(scores * self.scale(), queries, keys);
        let heads = weights.clone().matmul(values); // (b, H, s, V)
        (each_head(heads, &self.o).sum::<_, Axis<1>>(), weights)
    }
    // ANCHOR_END: expanded

    /// The whole sequence at once, causal, in the plain form.
    pub fn forward(&self, x: &Rows<HIDDEN, Dev>) -> (Rows<HIDDEN, Dev>, Weights<HEADS, Dev>) {
        let n = x.shape().1;
        self.attend_expanded(self.queries(x, 0), &self.latents(x, 0), 0..n, 0..n)
    }
}

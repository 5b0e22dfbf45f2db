//! The products multi-head latent attention is made of, for every head at once: rows by one
//! matrix per head, queries against keys (their own or shared by every head), and the causal
//! softmax. The tensors' shapes are named here too.

use std::ops::Range;

use ch01_attention::{broadcast_mask, DEFAULT_MASK_FILL};
use ch10_language_models::positions_allowed;
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

//! Grouped-query attention (Ainslie et al. 2023): `HEADS` query heads share `KV_HEADS` key/value
//! heads, `HEADS / KV_HEADS` query heads to a group.
//!
//! With `KV_HEADS = HEADS` it is chapter 3's multi-head attention; with `KV_HEADS = 1` it is
//! multi-query attention (Shazeer 2019). In between it keeps most of multi-head attention's
//! quality while the KV cache shrinks by `HEADS / KV_HEADS` (Llama 2 70B: 64 query heads, 8
//! key/value heads, a cache 8 times smaller).

use ch01_attention::{broadcast_mask, scaled_dot_product_attention, Weights};
use ch03_multi_head::split_heads;
use dfdx::nn::modules::UnbiasedLinear;
use dfdx::nn::{BuildModule, Module, ModuleVisitor, TensorCollection};
use dfdx::prelude::*;

use crate::cache::LayerCache;
use crate::mask::{positions_allowed, Window};
use crate::rope::Rope;

/// Tokens in and out of a layer: `(batch, seq, M)`.
pub type Tokens<const M: usize, Dev, T = NoneTape> = Tensor<(usize, usize, Const<M>), f32, Dev, T>;

/// Query heads of one layer: `(batch, heads, seq, head_dim)`.
pub type QueryHeads<const H: usize, const DK: usize, Dev, T> =
    Tensor<(usize, Const<H>, usize, Const<DK>), f32, Dev, T>;

/// Attention with `H` query heads over `KV` shared key/value heads, RoPE on queries and keys,
/// no biases.
///
/// # Generics
/// - `M`: `hidden_size`, the width of the tokens; `M = H * DK`.
/// - `H`: the number of query heads (`num_attention_heads`).
/// - `KV`: the number of key/value heads (`num_key_value_heads`); `H` must be a multiple of it.
/// - `DK`: the width of one head (`head_dim`).
/// - `KVD`: the width of the key and value projections, `KV * DK` (stable Rust cannot compute it
///   in a type, so it is named and checked).
/// - `E`: the element type of the weights (`f32`); `Dev`: the dfdx device.
///
/// PyTorch equivalent: Hugging Face's `LlamaAttention` (the field names are its own). With
/// `KV = H` and biases added it is `nn.MultiheadAttention`, chapter 3's
/// [`MultiHeadAttention`](ch03_multi_head::MultiHeadAttention).
// ANCHOR: struct
#[derive(Clone, Debug)]
pub struct GroupedQueryAttention<
    const M: usize,
    const H: usize,
    const KV: usize,
    const DK: usize,
    const KVD: usize,
    E: Dtype,
    Dev: Storage<E>,
> {
    pub q_proj: UnbiasedLinear<M, M, E, Dev>,
    pub k_proj: UnbiasedLinear<M, KVD, E, Dev>,
    pub v_proj: UnbiasedLinear<M, KVD, E, Dev>,
    pub o_proj: UnbiasedLinear<M, M, E, Dev>,
}
// ANCHOR_END: struct

impl<
        const M: usize,
        const H: usize,
        const KV: usize,
        const DK: usize,
        const KVD: usize,
        E: Dtype,
        Dev: Storage<E>,
    > GroupedQueryAttention<M, H, KV, DK, KVD, E, Dev>
{
    /// Evaluated where the layer is built or run: a compile error unless the sizes fit.
    // ANCHOR: shape_check
    pub const SHAPE_CHECK: () = {
        assert!(KV > 0 && H.is_multiple_of(KV), "HEADS must be a multiple of KV_HEADS: each key/value head serves HEADS / KV_HEADS query heads");
        assert!(H * DK == M, "HEADS * HEAD_DIM must equal the hidden size M");
        assert!(
            KV * DK == KVD,
            "KVD must be KV_HEADS * HEAD_DIM, the width of the key and value projections"
        );
    };
    // ANCHOR_END: shape_check

    /// How many query heads share one key/value head.
    pub const GROUP: usize = H / KV;
}

impl<
        const M: usize,
        const H: usize,
        const KV: usize,
        const DK: usize,
        const KVD: usize,
        Dev: Device<f32>,
    > GroupedQueryAttention<M, H, KV, DK, KVD, f32, Dev>
{
    /// A layer with `nn.Linear`-style uniform initialisation.
    pub fn new(dev: &Dev) -> Self {
        const { Self::SHAPE_CHECK };
        BuildModule::build(dev)
    }

    /// Projects `x` to query heads and key/value heads, and turns queries and keys by RoPE, the
    /// first token at position `start`.
    // ANCHOR: project
    pub fn project<T: Tape<f32, Dev>>(
        &self,
        x: Tokens<M, Dev, T>,
        rope: &Rope,
        start: usize,
    ) -> (QueryHeads<H, DK, Dev, T>, QueryHeads<KV, DK, Dev, T>, QueryHeads<KV, DK, Dev, T>) {
        let (q, k, v) = self.heads(x);
        (rope.apply(q, start), rope.apply(k, start), v)
    }

    /// The projections alone, split into heads: `H` query heads, `KV` key and value heads.
    pub fn heads<T: Tape<f32, Dev>>(
        &self,
        x: Tokens<M, Dev, T>,
    ) -> (QueryHeads<H, DK, Dev, T>, QueryHeads<KV, DK, Dev, T>, QueryHeads<KV, DK, Dev, T>) {
        const { Self::SHAPE_CHECK }; // H % KV == 0, H * DK == M, KV * DK == KVD
        let q = split_heads(self.q_proj.forward(x.retaped::<T>()), (Const::<H>, Const::<DK>));
        let k = split_heads(self.k_proj.forward(x.retaped::<T>()), (Const::<KV>, Const::<DK>));
        let v = split_heads(self.v_proj.forward(x), (Const::<KV>, Const::<DK>));
        (q, k, v)
    }
    // ANCHOR_END: project

    /// The whole sequence at once, causal, no cache (training, and the reference the cache is
    /// checked against); each query sees at most `window` keys. Returns the output and the
    /// weights `(batch, H, seq, seq)`.
    pub fn forward<T: Tape<f32, Dev>>(
        &self,
        x: Tokens<M, Dev, T>,
        rope: &Rope,
        window: Window,
    ) -> (Tokens<M, Dev, T>, Weights<usize, Const<H>, usize, usize, Dev>) {
        let n = x.shape().1;
        let (q, k, v) = self.project(x, rope, 0);
        self.attend(q, k, v, 0..n, 0..n, window.0)
    }

    /// New tokens against a cache: their keys and values join it, and they attend to everything
    /// it holds. The first new token is at position `cache.next_position()`.
    // ANCHOR: forward_cached
    pub fn forward_cached(
        &self,
        x: Tokens<M, Dev>,
        rope: &Rope,
        cache: &mut LayerCache<KV, DK, Dev>,
    ) -> (Tokens<M, Dev>, Weights<usize, Const<H>, usize, usize, Dev>) {
        let start = cache.next_position();
        let queries = start..start + x.shape().1;
        let (q, k, v) = self.project(x, rope, start); // turned once, at their own positions
        let (k, v, keys) = cache.append(k, v);
        self.attend(q, k, v, queries, keys, cache.window())
    }
    // ANCHOR_END: forward_cached

    /// Attention of the query heads over the key/value heads, each shared by `GROUP` query heads,
    /// at the given positions; then the heads are merged and mixed by `o_proj`.
    // ANCHOR: attend
    pub fn attend<T: Tape<f32, Dev>>(
        &self,
        q: QueryHeads<H, DK, Dev, T>,
        k: QueryHeads<KV, DK, Dev, T>,
        v: QueryHeads<KV, DK, Dev, T>,
        queries: std::ops::Range<usize>,
        keys: std::ops::Range<usize>,
        window: Option<usize>,
    ) -> (Tokens<M, Dev, T>, Weights<usize, Const<H>, usize, usize, Dev>) {
        let (b, _, n, _) = *q.shape();
        let dev = q.device().clone();
        let (k, v) = (repeat_kv::<H, KV, DK, _, _>(k), repeat_kv::<H, KV, DK, _, _>(v));
        let mask = positions_allowed(&dev, queries, keys, window);
        let mask = broadcast_mask(mask, b, Const::<H>);
        let (heads, weights) = scaled_dot_product_attention(q, k, v, Some(&mask)); // chapter 1
        let merged = heads.permute::<_, Axes4<0, 2, 1, 3>>().reshape_like(&(b, n, Const::<M>));
        (self.o_proj.forward(merged), weights)
    }
    // ANCHOR_END: attend
}

/// Expands `KV` key/value heads to `H`: head `g` is used by query heads `g * H/KV ..
/// (g + 1) * H/KV`, next to each other (PyTorch's `repeat_interleave(H / KV, dim=1)`, Hugging
/// Face's `repeat_kv`). `repeat` instead of `repeat_interleave` would give query head `h` the
/// key/value head `h mod KV`: a different model.
// ANCHOR: repeat_kv
pub fn repeat_kv<const H: usize, const KV: usize, const DK: usize, Dev, T>(
    kv: QueryHeads<KV, DK, Dev, T>,
) -> QueryHeads<H, DK, Dev, T>
where
    Dev: Device<f32>,
    T: Tape<f32, Dev>,
{
    let (b, _, s, _) = *kv.shape();
    // (b, KV, s, d) -> (b, KV, H/KV, s, d): a new axis, no copy; then one copy into H heads
    kv.broadcast_like::<_, Axis<2>>(&(b, Const::<KV>, H / KV, s, Const::<DK>)).reshape_like(&(
        b,
        Const::<H>,
        s,
        Const::<DK>,
    ))
}
// ANCHOR_END: repeat_kv

impl<
        const M: usize,
        const H: usize,
        const KV: usize,
        const DK: usize,
        const KVD: usize,
        Dev: Device<f32>,
    > TensorCollection<f32, Dev> for GroupedQueryAttention<M, H, KV, DK, KVD, f32, Dev>
{
    type To<E2: Dtype, D2: Device<E2>> = GroupedQueryAttention<M, H, KV, DK, KVD, E2, D2>;

    fn iter_tensors<V: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut V,
    ) -> Result<Option<Self::To<V::E2, V::D2>>, V::Err> {
        visitor.visit_fields(
            (
                Self::module("q_proj", |s| &s.q_proj, |s| &mut s.q_proj),
                Self::module("k_proj", |s| &s.k_proj, |s| &mut s.k_proj),
                Self::module("v_proj", |s| &s.v_proj, |s| &mut s.v_proj),
                Self::module("o_proj", |s| &s.o_proj, |s| &mut s.o_proj),
            ),
            |(q_proj, k_proj, v_proj, o_proj)| GroupedQueryAttention {
                q_proj,
                k_proj,
                v_proj,
                o_proj,
            },
        )
    }
}

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

use crate::llama::cache::LayerCache;
use crate::llama::mask::{positions_allowed, Window};
use crate::llama::rope::Rope;

/// Tokens in and out of a layer: `(batch, seq, HIDDEN)`.
pub type Tokens<const HIDDEN: usize, Dev, T = NoneTape> =
    Tensor<(usize, usize, Const<HIDDEN>), f32, Dev, T>;

/// Query heads of one layer: `(batch, heads, seq, head_dim)`.
pub type QueryHeads<const HEADS: usize, const HEAD_DIM: usize, Dev, T> =
    Tensor<(usize, Const<HEADS>, usize, Const<HEAD_DIM>), f32, Dev, T>;

/// Attention with `HEADS` query heads over `KV_HEADS` shared key/value heads, RoPE on queries and keys,
/// no biases.
///
/// # Generics
/// - `HIDDEN`: `hidden_size`, the width of the tokens; `HIDDEN = HEADS * HEAD_DIM`.
/// - `HEADS`: the number of query heads (`num_attention_heads`).
/// - `KV_HEADS`: the number of key/value heads (`num_key_value_heads`); `HEADS` must be a multiple of it.
/// - `HEAD_DIM`: the width of one head (`head_dim`).
/// - `KV_WIDTH`: the width of the key and value projections, `KV_HEADS * HEAD_DIM` (stable Rust cannot compute it
///   in a type, so it is named and checked).
/// - `E`: the element type of the weights (`f32`); `Dev`: the dfdx device.
///
/// PyTorch equivalent: Hugging Face's `LlamaAttention` (the field names are its own). With
/// `KV_HEADS = HEADS` and biases added it is `nn.MultiheadAttention`, chapter 3's
/// [`MultiHeadAttention`](ch03_multi_head::MultiHeadAttention).
// ANCHOR: struct
#[derive(Clone, Debug)]
pub struct GroupedQueryAttention<
    const HIDDEN: usize,
    const HEADS: usize,
    const KV_HEADS: usize,
    const HEAD_DIM: usize,
    const KV_WIDTH: usize, // KV_HEADS * HEAD_DIM, named because stable Rust cannot compute it here
    E: Dtype,
    Dev: Storage<E>,
> {
    pub q_proj: UnbiasedLinear<HIDDEN, HIDDEN, E, Dev>,
    pub k_proj: UnbiasedLinear<HIDDEN, KV_WIDTH, E, Dev>,
    pub v_proj: UnbiasedLinear<HIDDEN, KV_WIDTH, E, Dev>,
    pub o_proj: UnbiasedLinear<HIDDEN, HIDDEN, E, Dev>,
}
// ANCHOR_END: struct

impl<
        const HIDDEN: usize,
        const HEADS: usize,
        const KV_HEADS: usize,
        const HEAD_DIM: usize,
        const KV_WIDTH: usize,
        E: Dtype,
        Dev: Storage<E>,
    > GroupedQueryAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, E, Dev>
{
    /// Evaluated where the layer is built or run: a compile error unless the sizes fit.
    // ANCHOR: shape_check
    pub const SHAPE_CHECK: () = {
        assert!(KV_HEADS > 0 && HEADS.is_multiple_of(KV_HEADS), "HEADS must be a multiple of KV_HEADS: each key/value head serves HEADS / KV_HEADS query heads");
        assert!(HEADS * HEAD_DIM == HIDDEN, "HEADS * HEAD_DIM must equal the hidden size");
        assert!(
            KV_HEADS * HEAD_DIM == KV_WIDTH,
            "KV_WIDTH must be KV_HEADS * HEAD_DIM, the width of the key and value projections"
        );
    };
    // ANCHOR_END: shape_check

    /// How many query heads share one key/value head.
    pub const GROUP: usize = HEADS / KV_HEADS;
}

impl<
        const HIDDEN: usize,
        const HEADS: usize,
        const KV_HEADS: usize,
        const HEAD_DIM: usize,
        const KV_WIDTH: usize,
        Dev: Device<f32>,
    > GroupedQueryAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, f32, Dev>
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
        x: Tokens<HIDDEN, Dev, T>,
        rope: &Rope,
        start: usize,
    ) -> (
        QueryHeads<HEADS, HEAD_DIM, Dev, T>,
        QueryHeads<KV_HEADS, HEAD_DIM, Dev, T>,
        QueryHeads<KV_HEADS, HEAD_DIM, Dev, T>,
    ) {
        let (q, k, v) = self.heads(x);
        (rope.apply(q, start), rope.apply(k, start), v)
    }

    /// The projections alone, split into heads: `HEADS` query heads, `KV_HEADS` key and value heads.
    pub fn heads<T: Tape<f32, Dev>>(
        &self,
        x: Tokens<HIDDEN, Dev, T>,
    ) -> (
        QueryHeads<HEADS, HEAD_DIM, Dev, T>,
        QueryHeads<KV_HEADS, HEAD_DIM, Dev, T>,
        QueryHeads<KV_HEADS, HEAD_DIM, Dev, T>,
    ) {
        const { Self::SHAPE_CHECK }; // HEADS % KV_HEADS == 0, HEADS * HEAD_DIM == HIDDEN, KV_HEADS * HEAD_DIM == KV_WIDTH
        let q =
            split_heads(self.q_proj.forward(x.retaped::<T>()), (Const::<HEADS>, Const::<HEAD_DIM>));
        let k = split_heads(
            self.k_proj.forward(x.retaped::<T>()),
            (Const::<KV_HEADS>, Const::<HEAD_DIM>),
        );
        let v = split_heads(self.v_proj.forward(x), (Const::<KV_HEADS>, Const::<HEAD_DIM>));
        (q, k, v)
    }
    // ANCHOR_END: project

    /// The whole sequence at once, causal, no cache (training, and the reference the cache is
    /// checked against); each query sees at most `window` keys. Returns the output and the
    /// weights `(batch, HEADS, seq, seq)`.
    pub fn forward<T: Tape<f32, Dev>>(
        &self,
        x: Tokens<HIDDEN, Dev, T>,
        rope: &Rope,
        window: Window,
    ) -> (Tokens<HIDDEN, Dev, T>, Weights<usize, Const<HEADS>, usize, usize, Dev>) {
        let n = x.shape().1;
        let (q, k, v) = self.project(x, rope, 0);
        self.attend(q, k, v, 0..n, 0..n, window.0)
    }

    /// New tokens against a cache: their keys and values join it, and they attend to everything
    /// it holds. The first new token is at position `cache.next_position()`.
    // ANCHOR: forward_cached
    pub fn forward_cached(
        &self,
        x: Tokens<HIDDEN, Dev>,
        rope: &Rope,
        cache: &mut LayerCache<KV_HEADS, HEAD_DIM, Dev>,
    ) -> (Tokens<HIDDEN, Dev>, Weights<usize, Const<HEADS>, usize, usize, Dev>) {
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
        q: QueryHeads<HEADS, HEAD_DIM, Dev, T>,
        k: QueryHeads<KV_HEADS, HEAD_DIM, Dev, T>,
        v: QueryHeads<KV_HEADS, HEAD_DIM, Dev, T>,
        queries: std::ops::Range<usize>,
        keys: std::ops::Range<usize>,
        window: Option<usize>,
    ) -> (Tokens<HIDDEN, Dev, T>, Weights<usize, Const<HEADS>, usize, usize, Dev>) {
        let (merged, weights) = self.attend_heads(q, k, v, queries, keys, window);
        (self.o_proj.forward(merged), weights)
    }

    /// [`attend`](Self::attend) without `o_proj`: the heads' outputs side by side.
    pub fn attend_heads<T: Tape<f32, Dev>>(
        &self,
        q: QueryHeads<HEADS, HEAD_DIM, Dev, T>,
        k: QueryHeads<KV_HEADS, HEAD_DIM, Dev, T>,
        v: QueryHeads<KV_HEADS, HEAD_DIM, Dev, T>,
        queries: std::ops::Range<usize>,
        keys: std::ops::Range<usize>,
        window: Option<usize>,
    ) -> (Tokens<HIDDEN, Dev, T>, Weights<usize, Const<HEADS>, usize, usize, Dev>) {
        let (b, _, n, _) = *q.shape();
        let dev = q.device().clone();
        let (k, v) = (
            repeat_kv::<HEADS, KV_HEADS, HEAD_DIM, _, _>(k),
            repeat_kv::<HEADS, KV_HEADS, HEAD_DIM, _, _>(v),
        );
        let mask = positions_allowed(&dev, queries, keys, window);
        let mask = broadcast_mask(mask, b, Const::<HEADS>);
        let (heads, weights) = scaled_dot_product_attention(q, k, v, Some(&mask)); // chapter 1
        (heads.permute::<_, Axes4<0, 2, 1, 3>>().reshape_like(&(b, n, Const::<HIDDEN>)), weights)
    }
    // ANCHOR_END: attend
}

/// Expands `KV_HEADS` key/value heads to `HEADS`: head `g` is used by query heads `g * HEADS/KV_HEADS ..
/// (g + 1) * HEADS/KV_HEADS`, next to each other (PyTorch's `repeat_interleave(HEADS / KV_HEADS, dim=1)`, Hugging
/// Face's `repeat_kv`). `repeat` instead of `repeat_interleave` would give query head `h` the
/// key/value head `h mod KV_HEADS`: a different model.
// ANCHOR: repeat_kv
pub fn repeat_kv<const HEADS: usize, const KV_HEADS: usize, const HEAD_DIM: usize, Dev, T>(
    kv: QueryHeads<KV_HEADS, HEAD_DIM, Dev, T>,
) -> QueryHeads<HEADS, HEAD_DIM, Dev, T>
where
    Dev: Device<f32>,
    T: Tape<f32, Dev>,
{
    let (b, _, s, _) = *kv.shape();
    // (b, KV_HEADS, s, d) -> (b, KV_HEADS, HEADS/KV_HEADS, s, d): a new axis, no copy; then one copy into HEADS heads
    kv.broadcast_like::<_, Axis<2>>(&(b, Const::<KV_HEADS>, HEADS / KV_HEADS, s, Const::<HEAD_DIM>))
        .reshape_like(&(b, Const::<HEADS>, s, Const::<HEAD_DIM>))
}
// ANCHOR_END: repeat_kv

impl<
        const HIDDEN: usize,
        const HEADS: usize,
        const KV_HEADS: usize,
        const HEAD_DIM: usize,
        const KV_WIDTH: usize,
        Dev: Device<f32>,
    > TensorCollection<f32, Dev>
    for GroupedQueryAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, f32, Dev>
{
    type To<E2: Dtype, D2: Device<E2>> =
        GroupedQueryAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, E2, D2>;

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

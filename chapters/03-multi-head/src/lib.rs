//! # Chapter 3 — multi-head attention
//!
//! Multi-head attention does not build `h` separate attention layers. It projects once to the full
//! `d_model`, *reshapes* the result into `h` heads of `d_k = d_model / h` dimensions each, runs
//! chapter 1's attention on all heads at once, and merges the heads back with one more projection.
//!
//! Shape mistakes that PyTorch reports at run time are compile errors here: see [`shape_errors`].

#[doc = include_str!("shape_errors.md")]
pub mod shape_errors {}

use ch01_attention::{scaled_dot_product_attention, Mask, Weights};
use dfdx::nn::modules::Linear;
use dfdx::nn::{BuildModule, Module, ModuleVisitor, TensorCollection};
use dfdx::prelude::*;

#[cfg(not(target_arch = "wasm32"))] // figures are drawn natively; `web/` builds without plotting
pub mod figures;

/// The chapter's demo layer: `d_model = 64`, 8 heads of 8 (`nn.MultiheadAttention(64, 8)`).
pub type Mha64x8<Dev> = MultiHeadAttention<64, 8, 8, f32, Dev>;

/// `d_model = 64`, 4 heads of 16 (`nn.MultiheadAttention(64, 4)`): same parameters as [`Mha64x8`].
pub type Mha64x4<Dev> = MultiHeadAttention<64, 4, 16, f32, Dev>;

/// `d_model = 16`, 4 heads of 4 (`nn.MultiheadAttention(16, 4)`): the PyTorch parity fixtures and
/// the per-head figures.
pub type Mha16x4<Dev> = MultiHeadAttention<16, 4, 4, f32, Dev>;

/// Multi-head attention with `HEADS` heads of `D_K` dimensions, `D_MODEL = HEADS * D_K`.
///
/// The four projections are `Linear` layers with bias, stored as PyTorch stores them (weight
/// `(out, in)`), so weights exported from `nn.MultiheadAttention` load one to one.
///
/// # Generics
/// - `D_MODEL`: the width of the tokens, of every projection, and of the output, `d_model`.
/// - `HEADS`: the number of heads, `h`.
/// - `D_K`: the width of one head, `d_k = d_model / h`; checked at compile time
///   ([`MultiHeadAttention::SHAPE_CHECK`]), because stable Rust cannot compute it in a type.
/// - `E`: the element type of the weights (`f32`; the layer computes in `f32`).
/// - `Dev`: the dfdx device (`Cpu`, or `Cuda` with the `cuda` feature).
///
/// PyTorch equivalent: `nn.MultiheadAttention(D_MODEL, HEADS, batch_first=True)`, except that
/// [`forward`](MultiHeadAttention::forward) returns the per-head weights (PyTorch's
/// `average_attn_weights=False`) and takes a mask with `true` = may attend. The configurations the
/// book uses have aliases: [`Mha64x8`], [`Mha64x4`], [`Mha16x4`].
// ANCHOR: struct
#[derive(Clone, Debug)]
pub struct MultiHeadAttention<
    const D_MODEL: usize,
    const HEADS: usize,
    const D_K: usize,
    E: Dtype,
    Dev: Storage<E>,
> {
    pub w_q: Linear<D_MODEL, D_MODEL, E, Dev>,
    pub w_k: Linear<D_MODEL, D_MODEL, E, Dev>,
    pub w_v: Linear<D_MODEL, D_MODEL, E, Dev>,
    pub w_o: Linear<D_MODEL, D_MODEL, E, Dev>,
}
// ANCHOR_END: struct

impl<const D_MODEL: usize, const HEADS: usize, const D_K: usize, E: Dtype, Dev: Storage<E>>
    MultiHeadAttention<D_MODEL, HEADS, D_K, E, Dev>
{
    /// Evaluated when the type is used: a compile error unless `HEADS * D_K == D_MODEL`.
    // ANCHOR: shape_check
    pub const SHAPE_CHECK: () = assert!(
        HEADS * D_K == D_MODEL && HEADS > 0,
        "MultiHeadAttention<D_MODEL, HEADS, D_K>: HEADS * D_K must equal D_MODEL (each head gets D_MODEL / HEADS dimensions)"
    );
    // ANCHOR_END: shape_check
}

impl<const D_MODEL: usize, const HEADS: usize, const D_K: usize, Dev: Device<f32>>
    MultiHeadAttention<D_MODEL, HEADS, D_K, f32, Dev>
{
    /// A layer with PyTorch-style random initialisation, drawn from the device's generator.
    pub fn new(dev: &Dev) -> Self {
        const { Self::SHAPE_CHECK };
        BuildModule::build(dev)
    }

    /// Multi-head attention of `q` over `k`/`v`. Returns the output `(batch, q_len, d_model)` and
    /// the per-head weights `(batch, heads, q_len, kv_len)`. `mask` (`true` = may attend) is
    /// broadcast by the caller to `(batch, heads, q_len, kv_len)`.
    // ANCHOR: forward
    pub fn forward<B: Dim, Sq: Dim, Sk: Dim, T: Tape<f32, Dev>>(
        &self,
        q: Tensor<(B, Sq, Const<D_MODEL>), f32, Dev, T>,
        k: Tensor<(B, Sk, Const<D_MODEL>), f32, Dev>,
        v: Tensor<(B, Sk, Const<D_MODEL>), f32, Dev>,
        mask: Option<&Mask<B, Const<HEADS>, Sq, Sk, Dev>>,
    ) -> (Tensor<(B, Sq, Const<D_MODEL>), f32, Dev, T>, Weights<B, Const<HEADS>, Sq, Sk, Dev>) {
        const { Self::SHAPE_CHECK }; // HEADS * D_K == D_MODEL, or this does not compile
        let (b, sq) = (q.shape().0, q.shape().1);
        assert_eq!(k.shape().1, v.shape().1, "keys and values must have the same length");

        // 1. project: (b, s, d_model) -> (b, s, d_model)
        let q = self.w_q.forward(q);
        let k = self.w_k.forward(k.retaped::<T>());
        let v = self.w_v.forward(v.retaped::<T>());

        // 2. split the last axis into heads: (b, s, h * d_k) -> (b, s, h, d_k) -> (b, h, s, d_k)
        let heads = (Const::<HEADS>, Const::<D_K>);
        let (q, k, v) = (split_heads(q, heads), split_heads(k, heads), split_heads(v, heads));

        // 3. attention on every head at once (chapter 1)
        let (heads, weights) = scaled_dot_product_attention(q, k, v, mask);

        // 4. merge the heads: (b, h, s, d_k) -> (b, s, h, d_k) -> (b, s, h * d_k)
        let merged =
            heads.permute::<_, Axes4<0, 2, 1, 3>>().reshape_like(&(b, sq, Const::<D_MODEL>));

        // 5. mix the heads with the output projection
        (self.w_o.forward(merged), weights)
    }
    // ANCHOR_END: forward

    /// Self-attention: queries, keys and values are all `x`.
    pub fn self_attention<B: Dim, S: Dim>(
        &self,
        x: Tensor<(B, S, Const<D_MODEL>), f32, Dev>,
        mask: Option<&Mask<B, Const<HEADS>, S, S, Dev>>,
    ) -> (Tensor<(B, S, Const<D_MODEL>), f32, Dev>, Weights<B, Const<HEADS>, S, S, Dev>) {
        self.forward(x.clone(), x.clone(), x, mask)
    }
}

/// The reshape trick: `(batch, seq, HEADS * D_K)` -> `(batch, HEADS, seq, D_K)`, the head shape
/// passed as a value: `split_heads(x, (Const::<8>, Const::<8>))`.
///
/// Head `h` gets the features `h * D_K .. (h + 1) * D_K` of every token. `HEADS * D_K` must equal
/// `D_MODEL`, checked at compile time.
// ANCHOR: split_heads
pub fn split_heads<
    B: Dim,
    S: Dim,
    const D_MODEL: usize,
    const HEADS: usize,
    const D_K: usize,
    Dev: Device<f32>,
    T: Tape<f32, Dev>,
>(
    x: Tensor<(B, S, Const<D_MODEL>), f32, Dev, T>,
    _heads: (Const<HEADS>, Const<D_K>),
) -> Tensor<(B, Const<HEADS>, S, Const<D_K>), f32, Dev, T> {
    const { assert!(HEADS * D_K == D_MODEL, "split_heads: HEADS * D_K must equal D_MODEL") };
    let (b, s, _) = *x.shape();
    x.reshape_like(&(b, s, Const::<HEADS>, Const::<D_K>)).permute::<_, Axes4<0, 2, 1, 3>>()
}
// ANCHOR_END: split_heads

/// Averages the per-head weights `(batch, heads, q, k)` into `(batch, q, k)`, as
/// `nn.MultiheadAttention` returns them by default (`average_attn_weights=True`).
pub fn average_heads<B: Dim, const H: usize, Sq: Dim, Sk: Dim, Dev: Device<f32>>(
    w: Weights<B, Const<H>, Sq, Sk, Dev>,
) -> Tensor<(B, Sq, Sk), f32, Dev> {
    w.mean::<_, Axis<1>>()
}

impl<const M: usize, const H: usize, const DK: usize, Dev: Device<f32>> TensorCollection<f32, Dev>
    for MultiHeadAttention<M, H, DK, f32, Dev>
{
    type To<E2: Dtype, D2: Device<E2>> = MultiHeadAttention<M, H, DK, E2, D2>;

    fn iter_tensors<V: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut V,
    ) -> Result<Option<Self::To<V::E2, V::D2>>, V::Err> {
        visitor.visit_fields(
            (
                Self::module("w_q", |s| &s.w_q, |s| &mut s.w_q),
                Self::module("w_k", |s| &s.w_k, |s| &mut s.w_k),
                Self::module("w_v", |s| &s.w_v, |s| &mut s.w_v),
                Self::module("w_o", |s| &s.w_o, |s| &mut s.w_o),
            ),
            |(w_q, w_k, w_v, w_o)| MultiHeadAttention { w_q, w_k, w_v, w_o },
        )
    }
}

/// The same weights as dfdx's built-in layer (which has the same four projections).
impl<const M: usize, const H: usize, const DK: usize, Dev: Device<f32>>
    From<&dfdx::nn::modules::MultiHeadAttention<M, H, M, M, f32, Dev>>
    for MultiHeadAttention<M, H, DK, f32, Dev>
{
    fn from(m: &dfdx::nn::modules::MultiHeadAttention<M, H, M, M, f32, Dev>) -> Self {
        const { Self::SHAPE_CHECK };
        Self { w_q: m.w_q.clone(), w_k: m.w_k.clone(), w_v: m.w_v.clone(), w_o: m.w_o.clone() }
    }
}

//! Drop-in: chapter 3's multi-head attention and chapter 5's encoder running on the fast tiled
//! kernel instead of chapter 1's dense attention, for inference (no gradients flow through it).
//! Same weights, same outputs, to rounding; no `n x n` weights are built (none are returned).

use ch03_multi_head::{split_heads, MultiHeadAttention};
use ch05_blocks::{Encoder, EncoderBlock, Mode, Placement};
use dfdx::prelude::*;

use crate::fast::{self, TILES};
use crate::heads::Heads;
use crate::pattern::Pattern;

// ANCHOR: mha_tiled
/// [`MultiHeadAttention::forward`] with the attention step done by [`fast::tiled`] under
/// `pattern` (the same for every sequence and head): project, split the heads, attend, merge,
/// project.
pub fn mha_tiled<B: Dim, Sq: Dim, Sk: Dim, const M: usize, const H: usize, const DK: usize, Dev>(
    mha: &MultiHeadAttention<M, H, DK, f32, Dev>,
    q: Tensor<(B, Sq, Const<M>), f32, Dev>,
    k: Tensor<(B, Sk, Const<M>), f32, Dev>,
    v: Tensor<(B, Sk, Const<M>), f32, Dev>,
    pattern: &dyn Pattern,
) -> Tensor<(B, Sq, Const<M>), f32, Dev>
where
    Dev: Device<f32>,
{
    let dev = q.device().clone();
    let (b, sq) = (q.shape().0, q.shape().1);
    let heads = (Const::<H>, Const::<DK>);
    let q = split_heads(mha.w_q.forward(q), heads);
    let k = split_heads(mha.w_k.forward(k), heads);
    let v = split_heads(mha.w_v.forward(v), heads);
    let (q, k, v) = (Heads::from_tensor(&q), Heads::from_tensor(&k), Heads::from_tensor(&v));
    let heads =
        fast::tiled(&q, &k, &v, pattern, TILES).to_tensor(&dev, (b, Const::<H>, sq, Const::<DK>));
    let merged = heads.permute::<_, Axes4<0, 2, 1, 3>>().reshape_like(&(b, sq, Const::<M>));
    mha.w_o.forward(merged)
}
// ANCHOR_END: mha_tiled

/// [`EncoderBlock::forward`] in evaluation mode, its self-attention on the tiled kernel.
pub fn encoder_block_tiled<
    B: Dim,
    S: Dim,
    const M: usize,
    const H: usize,
    const DK: usize,
    const F: usize,
    P,
    Dev,
>(
    block: &EncoderBlock<M, H, DK, F, P, f32, Dev>,
    x: Tensor<(B, S, Const<M>), f32, Dev>,
    pattern: &dyn Pattern,
) -> Tensor<(B, S, Const<M>), f32, Dev>
where
    P: Placement,
    Dev: Device<f32>,
{
    let x = P::residual(x, &block.norm1, 0.0, Mode::Eval, |h| {
        mha_tiled(&block.self_attn, h.clone(), h.clone(), h, pattern)
    });
    P::residual(x, &block.norm2, 0.0, Mode::Eval, |h| block.ffn.forward(h, Mode::Eval))
}

/// [`Encoder::forward`] in evaluation mode, every layer's self-attention on the tiled kernel.
pub fn encoder_tiled<
    B: Dim,
    S: Dim,
    const M: usize,
    const H: usize,
    const DK: usize,
    const F: usize,
    const L: usize,
    P,
    Dev,
>(
    encoder: &Encoder<M, H, DK, F, L, P, f32, Dev>,
    x: Tensor<(B, S, Const<M>), f32, Dev>,
    pattern: &dyn Pattern,
) -> Tensor<(B, S, Const<M>), f32, Dev>
where
    P: Placement,
    Dev: Device<f32>,
{
    encoder.layers.iter().fold(x, |x, layer| encoder_block_tiled(layer, x, pattern))
}

//! Additive float masks, `0` where attention is allowed and `-inf` where it is blocked, as
//! `nn.Transformer.generate_square_subsequent_mask` makes them.

use ch01_attention::{causal_allowed, scaled_scores};
use dfdx::prelude::*;

// ANCHOR: additive
/// A "may attend" mask as an **additive** float mask: `0.0` where allowed, `-inf` where blocked.
/// Adding it to the scores before the softmax masks them.
pub fn additive<S: Shape, Dev: Device<f32>>(allowed: Tensor<S, bool, Dev>) -> Tensor<S, f32, Dev> {
    let dev = allowed.device().clone();
    let shape = *allowed.shape();
    let blocked = dev.tensor(f32::NEG_INFINITY).broadcast_like(&shape);
    allowed.choose(dev.zeros_like(&shape), blocked)
}

/// PyTorch's `nn.Transformer.generate_square_subsequent_mask(n)`: `0.0` on and below the
/// diagonal, `-inf` above it.
///
/// # Panics
/// If `n == 0`.
pub fn square_subsequent_mask<Dev: Device<f32>>(
    dev: &Dev,
    n: usize,
) -> Tensor<(usize, usize), f32, Dev> {
    additive(causal_allowed(dev, n))
}
// ANCHOR_END: additive

/// Attention with an additive float mask, `softmax(Q K^T / sqrt(d_k) + A) V`, built on chapter 1's
/// [`scaled_scores`]. Returns `(output, weights)` like chapter 1's
/// `scaled_dot_product_attention`.
///
/// With `-inf` in `A`, a query whose keys are all blocked gets `NaN` weights (chapter 1).
// ANCHOR: attention_additive
pub fn attention_additive<B, H, Sq, Sk, const DK: usize, const DV: usize, Dev, T>(
    q: Tensor<(B, H, Sq, Const<DK>), f32, Dev, T>,
    k: Tensor<(B, H, Sk, Const<DK>), f32, Dev, T>,
    v: Tensor<(B, H, Sk, Const<DV>), f32, Dev, T>,
    mask: &Tensor<(B, H, Sq, Sk), f32, Dev>,
) -> (Tensor<(B, H, Sq, Const<DV>), f32, Dev, T>, Tensor<(B, H, Sq, Sk), f32, Dev>)
where
    B: Dim,
    H: Dim,
    Sq: Dim,
    Sk: Dim,
    Dev: Device<f32>,
    T: Tape<f32, Dev>,
{
    let scores = scaled_scores(q, k) + mask.clone(); // blocked scores become -inf
    let (weights, tape) = scores.softmax::<Axis<3>>().split_tape();
    (weights.clone().put_tape(tape).matmul(v), weights)
}
// ANCHOR_END: attention_additive

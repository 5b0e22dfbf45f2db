//! Scaled dot-product attention: `softmax(Q K^T / sqrt(d_k)) V`, batched over `(batch, heads)`.
//!
//! `d_k` and `d_v` are compile-time sizes (`Const<DK>`, `Const<DV>`): the math fixes them. Batch,
//! heads and the two sequence lengths are any [`Dim`], so they can be `usize` chosen at run time.

use crate::mask::Mask;
use dfdx::prelude::*;

/// Attention weights, `(batch, heads, queries, keys)`: each row is a distribution over the keys.
/// They carry no gradient tape, so looking at them never disturbs training.
pub type Weights<B, H, Sq, Sk, Dev> = Tensor<(B, H, Sq, Sk), f32, Dev>;

/// The score given to blocked positions by [`scaled_dot_product_attention`].
///
/// `-1e9` rather than `-inf`: a blocked key still gets a weight of exactly `0.0` (its `exp`
/// underflows), and a query whose keys are *all* blocked gets a uniform row instead of `NaN`
/// that would spread through the next layers. See [`attention_with_fill`] for `-inf`.
pub const DEFAULT_MASK_FILL: f32 = -1e9;

/// Scaled dot-product attention. Returns `(output, weights)`:
/// `output` has shape `(batch, heads, queries, d_v)`, `weights` `(batch, heads, queries, keys)`
/// and every row of `weights` sums to 1.
///
/// Positions where `mask` is `false` get the score [`DEFAULT_MASK_FILL`] before the softmax.
///
/// ```
/// use dfdx::prelude::*;
/// use ch01_attention::scaled_dot_product_attention;
/// let dev: Cpu = Default::default();
/// let q: Tensor<(usize, Const<1>, usize, Const<4>), f32, _> = dev.ones_like(&(2, Const::<1>, 3, Const::<4>));
/// let (out, w) = scaled_dot_product_attention(q.clone(), q.clone(), q, None);
/// assert_eq!(out.shape().concrete(), [2, 1, 3, 4]);
/// assert!(w.as_vec().iter().all(|&x| (x - 1.0 / 3.0).abs() < 1e-6));
/// ```
// ANCHOR: sdpa
pub fn scaled_dot_product_attention<B, H, Sq, Sk, const DK: usize, const DV: usize, Dev, T>(
    q: Tensor<(B, H, Sq, Const<DK>), f32, Dev, T>,
    k: Tensor<(B, H, Sk, Const<DK>), f32, Dev, T>,
    v: Tensor<(B, H, Sk, Const<DV>), f32, Dev, T>,
    mask: Option<&Mask<B, H, Sq, Sk, Dev>>,
) -> (Tensor<(B, H, Sq, Const<DV>), f32, Dev, T>, Weights<B, H, Sq, Sk, Dev>)
where
    B: Dim,
    H: Dim,
    Sq: Dim,
    Sk: Dim,
    Dev: Device<f32>,
    T: Tape<f32, Dev>,
{
    attention_with_fill(q, k, v, mask, DEFAULT_MASK_FILL)
}
// ANCHOR_END: sdpa

/// [`scaled_dot_product_attention`] with a chosen score for blocked positions.
///
/// With `f32::NEG_INFINITY` (what `masked_fill(mask == 0, float('-inf'))` followed by a softmax
/// does in PyTorch) a row whose keys are all blocked becomes `NaN`; with a large finite negative
/// number it becomes uniform.
// ANCHOR: attention_with_fill
pub fn attention_with_fill<B, H, Sq, Sk, const DK: usize, const DV: usize, Dev, T>(
    q: Tensor<(B, H, Sq, Const<DK>), f32, Dev, T>,
    k: Tensor<(B, H, Sk, Const<DK>), f32, Dev, T>,
    v: Tensor<(B, H, Sk, Const<DV>), f32, Dev, T>,
    mask: Option<&Mask<B, H, Sq, Sk, Dev>>,
    fill: f32,
) -> (Tensor<(B, H, Sq, Const<DV>), f32, Dev, T>, Weights<B, H, Sq, Sk, Dev>)
where
    B: Dim,
    H: Dim,
    Sq: Dim,
    Sk: Dim,
    Dev: Device<f32>,
    T: Tape<f32, Dev>,
{
    let (b, h, sq, sk) = (q.shape().0, q.shape().1, q.shape().2, k.shape().2);
    assert_eq!((b, h), (k.shape().0, k.shape().1), "q and k disagree on (batch, heads)");
    assert_eq!(k.shape().2, v.shape().2, "k and v must have the same number of keys");
    let dev = q.device().clone();

    let scores = scaled_scores(q, k);

    // blocked positions get `fill` before the softmax
    let scores = match mask {
        None => scores,
        Some(mask) => {
            let want = (b, h, sq, sk).concrete();
            assert_eq!(
                mask.shape().concrete(),
                want,
                "the mask's shape (batch, heads, queries, keys) must match the scores' {want:?}"
            );
            let fill = dev.tensor(fill).broadcast_like(&(b, h, sq, sk));
            mask.clone().choose(scores, fill)
        }
    };

    // weights: a probability distribution over the keys, for every query
    let weights = scores.softmax::<Axis<3>>();

    // output = weights V: (b, h, sq, sk) x (b, h, sk, dv) -> (b, h, sq, dv)
    let (weights, tape) = weights.split_tape();
    let output = weights.clone().put_tape(tape).matmul(v);
    (output, weights)
}
// ANCHOR_END: attention_with_fill

/// The scores `Q K^T / sqrt(d_k)`, shape `(batch, heads, queries, keys)`.
// ANCHOR: scaled_scores
pub fn scaled_scores<B, H, Sq, Sk, const DK: usize, Dev, T>(
    q: Tensor<(B, H, Sq, Const<DK>), f32, Dev, T>,
    k: Tensor<(B, H, Sk, Const<DK>), f32, Dev, T>,
) -> Tensor<(B, H, Sq, Sk), f32, Dev, T>
where
    B: Dim,
    H: Dim,
    Sq: Dim,
    Sk: Dim,
    Dev: Device<f32>,
    T: Tape<f32, Dev>,
{
    // (b, h, sq, dk) x (b, h, dk, sk) -> (b, h, sq, sk)
    q.matmul(k.permute::<_, Axes4<0, 1, 3, 2>>()) / (DK as f32).sqrt()
}
// ANCHOR_END: scaled_scores

//! From token vectors to one sentence vector: the mean over the real tokens, then length 1, as
//! sentence-transformers' `Pooling` (mean) and `Normalize` modules do.

use dfdx::prelude::*;

/// The mean of each sequence's real token vectors: `hidden` is `(batch, seq, d_model)`, `real`
/// is `(batch, seq)` with `true` for a real token and `false` for padding. Padding contributes
/// nothing, so a sentence gets the same vector alone or in a padded batch.
///
/// sentence-transformers equivalent: `Pooling(pooling_mode="mean")`, which divides by the number
/// of real tokens clamped at `1e-9` (a sequence of padding only would give 0, not NaN).
// ANCHOR: mean_pool
pub fn mean_pool<const M: usize, Dev: Device<f32>>(
    hidden: Tensor<(usize, usize, Const<M>), f32, Dev>,
    real: Tensor<(usize, usize), bool, Dev>,
) -> Tensor<(usize, Const<M>), f32, Dev> {
    let dev = hidden.device().clone();
    let shape = *hidden.shape();
    let (ones, zeros) = (dev.ones_like(real.shape()), dev.zeros_like(real.shape()));
    let weights = real.choose(ones, zeros); // 1.0 for a real token, 0.0 for padding
    let counts = weights.clone().sum::<_, Axis<1>>().clamp(1e-9, f32::INFINITY);
    let summed = (hidden * weights.broadcast_like(&shape)).sum::<_, Axis<1>>(); // (batch, M)
    summed / counts.broadcast_like(&(shape.0, Const::<M>))
}
// ANCHOR_END: mean_pool

/// Every row scaled to Euclidean length 1 (a zero row stays zero): PyTorch's
/// `F.normalize(x, p=2, dim=1)`, which divides by `max(|x|, 1e-12)`.
// ANCHOR: normalize
pub fn normalize<const M: usize, Dev: Device<f32>>(
    x: Tensor<(usize, Const<M>), f32, Dev>,
) -> Tensor<(usize, Const<M>), f32, Dev> {
    let shape = *x.shape();
    let norms = x.clone().square().sum::<_, Axis<1>>().sqrt().clamp(1e-12, f32::INFINITY);
    x / norms.broadcast_like(&shape)
}
// ANCHOR_END: normalize

/// The cosine similarity of two vectors: their dot product over the product of their lengths
/// (for embeddings of length 1, the dot product itself).
///
/// # Panics
/// If the lengths differ.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len(), "cosine of vectors of lengths {} and {}", a.len(), b.len());
    let dot = |x: &[f32], y: &[f32]| x.iter().zip(y).map(|(p, q)| p * q).sum::<f32>();
    dot(a, b) / (dot(a, a).sqrt() * dot(b, b).sqrt())
}

/// Every pair's cosine similarity: `rows[i][j] = cosine(v[i], v[j])`.
pub fn cosine_matrix(vectors: &[Vec<f32>]) -> Vec<Vec<f32>> {
    vectors.iter().map(|a| vectors.iter().map(|b| cosine(a, b)).collect()).collect()
}

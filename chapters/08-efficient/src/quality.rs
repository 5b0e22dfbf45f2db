//! How far linear attention is from softmax attention on the same inputs: the outputs, and how
//! spread out the weights are.

use ch01_attention::scaled_dot_product_attention;
use dfdx::prelude::*;

use crate::heads::Heads;
use crate::linear::linear_quadratic_head;

/// Width of the heads compared.
pub const D: usize = 16;

/// The two attentions on one head of seeded random queries, keys and values.
#[derive(Clone, Debug)]
pub struct LinearVsSoftmax {
    pub n: usize,
    /// mean `|softmax output - linear output|` over every element
    pub mean_abs_diff: f32,
    /// mean `|value|`, for scale
    pub mean_abs_value: f32,
    /// mean entropy of a row of weights, in nats (`ln n` for uniform rows)
    pub entropy_softmax: f32,
    pub entropy_linear: f32,
    /// mean of the largest weight of each row
    pub largest_softmax: f32,
    pub largest_linear: f32,
}

fn mean_entropy(weights: &[f32], n: usize) -> f32 {
    let entropy = |row: &[f32]| row.iter().filter(|&&p| p > 0.0).map(|&p| -p * p.ln()).sum::<f32>();
    weights.chunks(n).map(entropy).sum::<f32>() / (weights.len() / n) as f32
}

fn mean_largest(weights: &[f32], n: usize) -> f32 {
    weights.chunks(n).map(|r| r.iter().copied().fold(0.0, f32::max)).sum::<f32>()
        / (weights.len() / n) as f32
}

// ANCHOR: compare
/// Softmax attention (chapter 1) and linear attention on `n` random tokens of width [`D`].
pub fn linear_vs_softmax(n: usize) -> LinearVsSoftmax {
    let dev = Cpu::default();
    let [q, k, v] = [1, 2, 3].map(|seed| Heads::random(seed, 1, n, D));
    let t = |h: &Heads| h.to_tensor(&dev, (1, 1, n, Const::<D>));
    let (softmax_out, softmax_w) = scaled_dot_product_attention(t(&q), t(&k), t(&v), None);
    let (linear_out, linear_w) =
        linear_quadratic_head(q.head(0), k.head(0), v.head(0), (n, D, D), false);
    let softmax_w = softmax_w.as_vec();
    let elements = (n * D) as f32;
    let diff =
        softmax_out.as_vec().iter().zip(&linear_out).map(|(a, b)| (a - b).abs()).sum::<f32>();
    LinearVsSoftmax {
        n,
        mean_abs_diff: diff / elements,
        mean_abs_value: v.data.iter().map(|x| x.abs()).sum::<f32>() / elements,
        entropy_softmax: mean_entropy(&softmax_w, n),
        entropy_linear: mean_entropy(&linear_w, n),
        largest_softmax: mean_largest(&softmax_w, n),
        largest_linear: mean_largest(&linear_w, n),
    }
}
// ANCHOR_END: compare

//! Self-attention without trainable weights.
//!
//! Every token is compared with every token by a dot product, the scores of each row go through a
//! softmax, and each output is the weighted average of all the token vectors.

use dfdx::prelude::*;

/// The three tokens of the worked example, `d = 2`.
// ANCHOR: worked_tokens
pub const WORKED_TOKENS: [[f32; 2]; 3] = [
    [1.0, 0.0], // x0
    [0.8, 0.6], // x1, "cat"
    [0.0, 1.0], // x2
];
// ANCHOR_END: worked_tokens

/// The four-token sentence used throughout the chapter, three dimensions per token.
// ANCHOR: sentence
pub const WORDS: [&str; 4] = ["The", "cat", "sat", "down"];
pub const EMBEDDINGS: [[f32; 3]; 4] = [
    [0.43, 0.15, 0.89], // The
    [0.55, 0.87, 0.66], // cat
    [0.57, 0.85, 0.64], // sat
    [0.22, 0.58, 0.33], // down
];
// ANCHOR_END: sentence

/// The intermediate results of weightless self-attention over `n` tokens of dimension `D`.
///
/// # Generics
/// - `S`: the number of tokens `n`, a run-time `usize` or a `Const`.
/// - `D`: the width of a token vector, fixed at compile time.
/// - `Dev`: the dfdx device (`Cpu`, or `Cuda` with the `cuda` feature).
///
/// PyTorch has no module for this; it is the three lines `scores = x @ x.T`,
/// `weights = F.softmax(scores, dim=-1)` and `context = weights @ x`.
#[derive(Clone, Debug)]
pub struct SimpleAttention<S: Dim, const D: usize, Dev: Device<f32>> {
    /// `omega[i][j] = x_i . x_j`, shape `(n, n)`.
    pub scores: Tensor<(S, S), f32, Dev>,
    /// `alpha = softmax(omega)` row by row, shape `(n, n)`.
    pub weights: Tensor<(S, S), f32, Dev>,
    /// `z_i = sum_j alpha[i][j] x_j`, shape `(n, D)`.
    pub context: Tensor<(S, Const<D>), f32, Dev>,
}

/// Weightless self-attention: scores, softmax weights and context vectors of the tokens `x`.
// ANCHOR: simple_self_attention
pub fn simple_self_attention<S: Dim, const D: usize, Dev: Device<f32>>(
    x: &Tensor<(S, Const<D>), f32, Dev>,
) -> SimpleAttention<S, D, Dev> {
    // omega = X X^T: every token against every token
    let scores = x.clone().matmul(x.clone().permute::<_, Axes2<1, 0>>());
    // alpha: softmax over each row (the last axis)
    let weights = scores.clone().softmax::<Axis<1>>();
    // z = alpha X: each output is a weighted average of all tokens
    let context = weights.clone().matmul(x.clone());
    SimpleAttention { scores, weights, context }
}
// ANCHOR_END: simple_self_attention

/// Builds an `(n, D)` tensor from rows of constants, on any device.
pub fn tokens<const N: usize, const D: usize, Dev: Device<f32>>(
    dev: &Dev,
    rows: &[[f32; D]; N],
) -> Tensor<(usize, Const<D>), f32, Dev> {
    let flat: Vec<f32> = rows.iter().flatten().copied().collect();
    dev.tensor_from_vec(flat, (N, Const::<D>))
}

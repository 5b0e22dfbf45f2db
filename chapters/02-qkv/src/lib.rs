//! # Chapter 2 — queries, keys and values
//!
//! In chapter 1 one vector per token played three parts: the query that searches, the key that is
//! searched, and the value that is retrieved. Here each part gets its own projection:
//! `Q = X W_Q`, `K = X W_K`, `V = X W_V`, and attention runs on the projected vectors with
//! chapter 1's [`scaled_dot_product_attention`].
//!
//! The projections are dfdx `UnbiasedLinear` layers (PyTorch's `nn.Linear(.., bias=False)`). A
//! linear layer stores its weight as `(d_out, d_in)` and computes `x W^T`, so the matrix written
//! `W_Q` in the math (`d_in x d_k`, multiplied as `x W_Q`) is the *transpose* of the layer's weight;
//! [`QkvAttention::from_matrices`] does that transpose for you.
//!
//! Shape mistakes that PyTorch reports at run time are compile errors here: see [`shape_errors`].

#[doc = include_str!("shape_errors.md")]
pub mod shape_errors {}

use ch01_attention::{scaled_dot_product_attention, scaled_scores};
use dfdx::nn::{modules, BuildModule, Module};
use dfdx::prelude::*;

pub use ch01_attention::weightless::{tokens, EMBEDDINGS, WORDS};

/// Single-head self-attention with learned query, key and value projections.
///
/// # Generics
/// - `D_IN`: the width of the input token vectors, `d_in`.
/// - `D_K`: the width of a query and of a key, `d_k`.
/// - `D_V`: the width of a value, and so of the output, `d_v`.
/// - `Dev`: the dfdx device (`Cpu`, or `Cuda` with the `cuda` feature).
///
/// PyTorch equivalent: three `nn.Linear(d_in, d, bias=False)` layers followed by
/// `F.scaled_dot_product_attention` on a batch of one sequence with one head.
// ANCHOR: struct
#[derive(Clone, Debug)]
pub struct QkvAttention<const D_IN: usize, const D_K: usize, const D_V: usize, Dev: Device<f32>> {
    pub w_q: modules::UnbiasedLinear<D_IN, D_K, f32, Dev>,
    pub w_k: modules::UnbiasedLinear<D_IN, D_K, f32, Dev>,
    pub w_v: modules::UnbiasedLinear<D_IN, D_V, f32, Dev>,
}
// ANCHOR_END: struct

/// Everything one forward pass of [`QkvAttention`] computes, for showing and testing.
///
/// # Generics
/// - `D_K`, `D_V`, `Dev`: as in [`QkvAttention`].
///
/// In PyTorch these are the intermediate tensors of the forward pass (`Q`, `K`, `V`, the scaled
/// scores, `F.softmax(scores, dim=-1)` and `weights @ V`), which a module usually does not return.
#[derive(Clone, Debug)]
pub struct QkvOutput<const D_K: usize, const D_V: usize, Dev: Device<f32>> {
    pub q: Tensor<(usize, Const<D_K>), f32, Dev>,
    pub k: Tensor<(usize, Const<D_K>), f32, Dev>,
    pub v: Tensor<(usize, Const<D_V>), f32, Dev>,
    /// `Q K^T / sqrt(d_k)`, `(n, n)`.
    pub scores: Tensor<(usize, usize), f32, Dev>,
    /// Row-wise softmax of the scores, `(n, n)`.
    pub weights: Tensor<(usize, usize), f32, Dev>,
    /// The context vectors `weights V`, `(n, d_v)`.
    pub output: Tensor<(usize, Const<D_V>), f32, Dev>,
}

impl<const D_IN: usize, const D_K: usize, const D_V: usize, Dev: Device<f32>>
    QkvAttention<D_IN, D_K, D_V, Dev>
{
    /// Randomly initialised projections (uniform in `±1/sqrt(d_in)`, like PyTorch's `nn.Linear`),
    /// drawn from the device's random generator: seed the device for reproducible weights.
    // ANCHOR: new
    pub fn new(dev: &Dev) -> Self {
        Self {
            w_q: BuildModule::build(dev),
            w_k: BuildModule::build(dev),
            w_v: BuildModule::build(dev),
        }
    }
    // ANCHOR_END: new

    /// Projections given as the math writes them: `W` is `d_in x d_out` and `q = x W`.
    // ANCHOR: from_matrices
    pub fn from_matrices(
        dev: &Dev,
        w_q: [[f32; D_K]; D_IN],
        w_k: [[f32; D_K]; D_IN],
        w_v: [[f32; D_V]; D_IN],
    ) -> Self {
        // the layer stores W^T, shape (d_out, d_in)
        fn weight<const I: usize, const O: usize, Dev: Device<f32>>(
            dev: &Dev,
            w: [[f32; O]; I],
        ) -> modules::UnbiasedLinear<I, O, f32, Dev> {
            let flat: Vec<f32> = w.iter().flatten().copied().collect();
            let w: Tensor<Rank2<I, O>, f32, Dev> = dev.tensor_from_vec(flat, (Const, Const));
            modules::UnbiasedLinear { weight: w.permute::<Rank2<O, I>, _>() }
        }
        Self { w_q: weight(dev, w_q), w_k: weight(dev, w_k), w_v: weight(dev, w_v) }
    }
    // ANCHOR_END: from_matrices

    /// Projects and attends: `softmax(Q K^T / sqrt(d_k)) V` for the `n` tokens in `x`.
    // ANCHOR: forward
    pub fn forward(&self, x: Tensor<(usize, Const<D_IN>), f32, Dev>) -> QkvOutput<D_K, D_V, Dev> {
        let n = x.shape().0;
        // three projections of the same tokens, each (n, d)
        let q = self.w_q.forward(x.clone());
        let k = self.w_k.forward(x.clone());
        let v = self.w_v.forward(x);
        // chapter 1's attention works on (batch, heads, n, d): here one sequence and one head
        let q4 = q.clone().reshape_like(&(Const::<1>, Const::<1>, n, Const::<D_K>));
        let k4 = k.clone().reshape_like(&(Const::<1>, Const::<1>, n, Const::<D_K>));
        let v4 = v.clone().reshape_like(&(Const::<1>, Const::<1>, n, Const::<D_V>));
        let scores = scaled_scores(q4.clone(), k4.clone()).reshape_like(&(n, n));
        let (output, weights) = scaled_dot_product_attention(q4, k4, v4, None);
        QkvOutput {
            q,
            k,
            v,
            scores,
            weights: weights.reshape_like(&(n, n)),
            output: output.reshape_like(&(n, Const::<D_V>)),
        }
    }
    // ANCHOR_END: forward
}

/// The chapter's learned-projection demo: "The cat sat down" (3 dimensions per token) projected to
/// queries, keys and values of 2 dimensions.
pub type Qkv3To2<Dev> = QkvAttention<3, 2, 2, Dev>;

/// The bank-loan example's layer: 2 dimensions in, 2 out, for queries, keys and values alike.
pub type Qkv2To2<Dev> = QkvAttention<2, 2, 2, Dev>;

#[cfg(not(target_arch = "wasm32"))] // figures are drawn natively; `web/` builds without plotting
pub mod figures;

/// The "bank loan" worked example: two tokens, `d_in = d_k = 2`.
pub mod bank_loan {
    use super::*;

    // ANCHOR: bank_loan
    pub const X: [[f32; 2]; 2] = [
        [1.0, 0.5], // x0 "bank"
        [0.2, 0.9], // x1 "loan"
    ];
    // identity: every query is its token's embedding
    pub const W_Q: [[f32; 2]; 2] = [[1.0, 0.0], [0.0, 1.0]];
    // swaps the two dimensions of every key
    pub const W_K: [[f32; 2]; 2] = [[0.0, 1.0], [1.0, 0.0]];
    // doubles every value
    pub const W_V: [[f32; 2]; 2] = [[2.0, 0.0], [0.0, 2.0]];
    // ANCHOR_END: bank_loan

    /// The attention layer with the example's fixed matrices.
    pub fn layer<Dev: Device<f32>>(dev: &Dev) -> Qkv2To2<Dev> {
        QkvAttention::from_matrices(dev, W_Q, W_K, W_V)
    }
}

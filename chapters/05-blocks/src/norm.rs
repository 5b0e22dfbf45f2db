//! Layer normalisation ([Ba et al. 2016](https://arxiv.org/abs/1607.06450)), written out from the
//! mean and the variance, in the two forms common PyTorch code uses.
//!
//! * [`LayerNorm`]: `gamma * (x - mean) / sqrt(var + eps) + beta` with the *biased* variance (divide
//!   by `d`) and `eps = 1e-5` inside the square root. This is PyTorch's `nn.LayerNorm`, what
//!   `nn.TransformerEncoderLayer` uses, and what every later chapter uses.
//! * [`StdNorm`]: `gamma * (x - mean) / (std + eps) + beta` with the *unbiased* standard deviation
//!   (divide by `d - 1`, as `torch.std` does by default) and `eps = 1e-6` added to the std, as in the
//!   "annotated Transformer" style `NormLayer`.
//!
//! Both normalise each token's `d_model` features on their own: the statistics are taken over the
//! last axis only, never across tokens or sequences.

use dfdx::nn::{ModuleVisitor, TensorCollection, TensorOptions};
use dfdx::prelude::*;

/// `x - mean(x)` over the features of every token.
// ANCHOR: center
pub fn center<B: Dim, S: Dim, const M: usize, Dev: Device<f32>, T: Tape<f32, Dev>>(
    x: Tensor<(B, S, Const<M>), f32, Dev, T>,
) -> Tensor<(B, S, Const<M>), f32, Dev, T> {
    let shape = *x.shape();
    // mean over the features of each token: (b, s, m) -> (b, s), then stretched back
    let mean = x.retaped::<T>().mean::<_, Axis<2>>();
    x - mean.broadcast_like(&shape)
}

/// `normed * gamma + beta`, one gamma and beta per feature, shared by every token.
pub fn scale_shift<B: Dim, S: Dim, const M: usize, Dev: Device<f32>, T: Tape<f32, Dev>>(
    normed: Tensor<(B, S, Const<M>), f32, Dev, T>,
    gamma: &Tensor<(Const<M>,), f32, Dev>,
    beta: &Tensor<(Const<M>,), f32, Dev>,
) -> Tensor<(B, S, Const<M>), f32, Dev, T> {
    let shape = *normed.shape();
    normed * gamma.retaped::<T>().broadcast_like(&shape)
        + beta.retaped::<T>().broadcast_like(&shape)
}
// ANCHOR_END: center

/// `(x - mean) / sqrt(var + eps) * gamma + beta` over the last axis, biased variance.
///
/// # Generics
/// - `M`: the number of features normalised together (`d_model`).
/// - `E`: the element type of `gamma` and `beta` (`f32`).
/// - `Dev`: the dfdx device that holds them.
///
/// PyTorch equivalent: `nn.LayerNorm(M)` (`weight` is `gamma`, `bias` is `beta`, `eps = 1e-5`).
// ANCHOR: layer_norm_struct
#[derive(Clone, Debug)]
pub struct LayerNorm<const M: usize, E: Dtype, Dev: Storage<E>> {
    /// scale, one per feature, starts at 1
    pub gamma: Tensor<(Const<M>,), E, Dev>,
    /// shift, one per feature, starts at 0
    pub beta: Tensor<(Const<M>,), E, Dev>,
    /// added to the variance inside the square root
    pub eps: f64,
}
// ANCHOR_END: layer_norm_struct

/// PyTorch's default `eps` for `nn.LayerNorm`.
pub const LAYER_NORM_EPS: f64 = 1e-5;

/// The default `eps` of the annotated-Transformer style `NormLayer` (added to the standard
/// deviation).
pub const STD_NORM_EPS: f64 = 1e-6;

impl<const M: usize, Dev: Device<f32>> LayerNorm<M, f32, Dev> {
    /// gamma = 1, beta = 0, eps = 1e-5.
    pub fn new(dev: &Dev) -> Self {
        dfdx::nn::BuildModule::build(dev)
    }

    /// Normalises every token of a `(batch, seq, d_model)` tensor.
    // ANCHOR: layer_norm_forward
    pub fn forward<B: Dim, S: Dim, T: Tape<f32, Dev>>(
        &self,
        x: Tensor<(B, S, Const<M>), f32, Dev, T>,
    ) -> Tensor<(B, S, Const<M>), f32, Dev, T> {
        let centered = center(x);
        // biased variance: divide by m, as nn.LayerNorm does; (b, s, m) -> (b, s)
        let var = centered.retaped::<T>().square().mean::<_, Axis<2>>();
        let std = (var + self.eps as f32).sqrt();
        let shape = *centered.shape();
        scale_shift(centered / std.broadcast_like(&shape), &self.gamma, &self.beta)
    }
    // ANCHOR_END: layer_norm_forward
}

/// `(x - mean) / (std + eps) * gamma + beta` over the last axis, with the unbiased standard
/// deviation (`torch.std`'s default) and `eps` added to the std.
///
/// # Generics
/// As [`LayerNorm`]'s: `M` features, element type `E`, device `Dev`.
///
/// PyTorch equivalent: no built-in layer; the annotated-Transformer style `NormLayer`
/// (`a_2 * (x - mean) / (x.std(-1) + eps) + b_2`, `eps = 1e-6`) that many tutorials copy.
#[derive(Clone, Debug)]
pub struct StdNorm<const M: usize, E: Dtype, Dev: Storage<E>> {
    pub gamma: Tensor<(Const<M>,), E, Dev>,
    pub beta: Tensor<(Const<M>,), E, Dev>,
    pub eps: f64,
}

impl<const M: usize, Dev: Device<f32>> StdNorm<M, f32, Dev> {
    /// gamma = 1, beta = 0, eps = 1e-6.
    pub fn new(dev: &Dev) -> Self {
        dfdx::nn::BuildModule::build(dev)
    }

    // ANCHOR: std_norm_forward
    pub fn forward<B: Dim, S: Dim, T: Tape<f32, Dev>>(
        &self,
        x: Tensor<(B, S, Const<M>), f32, Dev, T>,
    ) -> Tensor<(B, S, Const<M>), f32, Dev, T> {
        assert!(M > 1, "StdNorm: the unbiased std of a single feature is undefined (0 / 0)");
        let centered = center(x);
        // unbiased: divide the sum of squares by m - 1, then eps goes *outside* the square root
        let var = centered.retaped::<T>().square().sum::<_, Axis<2>>() / (M - 1) as f32;
        let std = var.sqrt() + self.eps as f32;
        let shape = *centered.shape();
        scale_shift(centered / std.broadcast_like(&shape), &self.gamma, &self.beta)
    }
    // ANCHOR_END: std_norm_forward
}

/// For `d` features, the two forms differ (before eps) by the constant factor
/// `StdNorm / LayerNorm = sqrt((d - 1) / d)`: 0.866 for d = 4, 0.999 for d = 512.
pub fn unbiased_over_biased(d: usize) -> f64 {
    ((d as f64 - 1.0) / d as f64).sqrt()
}

macro_rules! norm_collection {
    ($name:ident, $eps:expr) => {
        impl<const M: usize, Dev: Device<f32>> TensorCollection<f32, Dev> for $name<M, f32, Dev> {
            type To<E2: Dtype, D2: Device<E2>> = $name<M, E2, D2>;

            fn iter_tensors<V: ModuleVisitor<Self, f32, Dev>>(
                visitor: &mut V,
            ) -> Result<Option<Self::To<V::E2, V::D2>>, V::Err> {
                visitor.visit_fields(
                    (
                        Self::tensor(
                            "gamma",
                            |s| &s.gamma,
                            |s| &mut s.gamma,
                            TensorOptions::reset_to_ones(),
                        ),
                        Self::tensor(
                            "beta",
                            |s| &s.beta,
                            |s| &mut s.beta,
                            TensorOptions::reset_to_zeros(),
                        ),
                        Self::scalar(
                            "eps",
                            |s| &s.eps,
                            |s| &mut s.eps,
                            dfdx::nn::ScalarOptions::from_default($eps),
                        ),
                    ),
                    |(gamma, beta, eps)| $name { gamma, beta, eps },
                )
            }
        }
    };
}
norm_collection!(LayerNorm, LAYER_NORM_EPS);
norm_collection!(StdNorm, STD_NORM_EPS);

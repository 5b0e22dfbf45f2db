//! RMSNorm (Zhang and Sennrich 2019): layer normalisation without the centring and the shift.
//!
//! `y = x / sqrt(mean(x^2) + eps) * weight`. Chapter 5's [`LayerNorm`](ch05_blocks::LayerNorm)
//! subtracts the mean, divides by the standard deviation, then scales and shifts; RMSNorm only
//! divides by the root mean square and scales. On an input whose mean is already zero the two
//! agree (a test checks it with chapter 5's [`center`](ch05_blocks::norm::center)). One reduction
//! instead of two and no bias: Llama, Mistral and most models since use it.

use dfdx::nn::{BuildModule, ModuleVisitor, ScalarOptions, TensorCollection, TensorOptions};
use dfdx::prelude::*;

/// Llama 2's and Mistral's `rms_norm_eps`, and this chapter's.
pub const RMS_NORM_EPS: f64 = 1e-5;

/// Root-mean-square normalisation over the last axis, one learned scale per feature.
///
/// # Generics
/// - `HIDDEN`: the number of features normalised together (`hidden_size`).
/// - `E`: the element type of `weight` (`f32`); `Dev`: the dfdx device.
///
/// PyTorch equivalent: Hugging Face's `LlamaRMSNorm(HIDDEN, eps)`, or `nn.RMSNorm(HIDDEN, eps)` in
/// PyTorch 2.4 and later; the field names are Hugging Face's.
// ANCHOR: rms_norm
#[derive(Clone, Debug)]
pub struct RmsNorm<const HIDDEN: usize, E: Dtype, Dev: Storage<E>> {
    /// scale, one per feature, starts at 1
    pub weight: Tensor<(Const<HIDDEN>,), E, Dev>,
    /// added to the mean square inside the root
    pub eps: f64,
}

impl<const HIDDEN: usize, Dev: Device<f32>> RmsNorm<HIDDEN, f32, Dev> {
    pub fn forward<B: Dim, S: Dim, T: Tape<f32, Dev>>(
        &self,
        x: Tensor<(B, S, Const<HIDDEN>), f32, Dev, T>,
    ) -> Tensor<(B, S, Const<HIDDEN>), f32, Dev, T> {
        let shape = *x.shape();
        // one number per token: the root of its mean square, (b, s, m) -> (b, s)
        let rms = (x.retaped::<T>().square().mean::<_, Axis<2>>() + self.eps as f32).sqrt();
        let normed = x / rms.broadcast_like(&shape);
        normed * self.weight.retaped::<T>().broadcast_like(&shape)
    }
}
// ANCHOR_END: rms_norm

impl<const HIDDEN: usize, Dev: Device<f32>> RmsNorm<HIDDEN, f32, Dev> {
    /// weight = 1, eps = 1e-5.
    pub fn new(dev: &Dev) -> Self {
        BuildModule::build(dev)
    }
}

impl<const HIDDEN: usize, Dev: Device<f32>> TensorCollection<f32, Dev>
    for RmsNorm<HIDDEN, f32, Dev>
{
    type To<E2: Dtype, D2: Device<E2>> = RmsNorm<HIDDEN, E2, D2>;

    fn iter_tensors<V: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut V,
    ) -> Result<Option<Self::To<V::E2, V::D2>>, V::Err> {
        visitor.visit_fields(
            (
                Self::tensor(
                    "weight",
                    |s| &s.weight,
                    |s| &mut s.weight,
                    TensorOptions::reset_to_ones(),
                ),
                Self::scalar(
                    "eps",
                    |s| &s.eps,
                    |s| &mut s.eps,
                    ScalarOptions::from_default(RMS_NORM_EPS),
                ),
            ),
            |(weight, eps)| RmsNorm { weight, eps },
        )
    }
}

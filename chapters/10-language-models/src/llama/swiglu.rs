//! The SwiGLU feed-forward network (Shazeer 2020): a gated linear unit with the SiLU ("swish")
//! activation in place of chapter 5's `Linear -> ReLU -> Linear`.
//!
//! `down(silu(gate(x)) * up(x))`: two projections up to the hidden width, one of them passed
//! through `silu(z) = z * sigmoid(z)` and used as a gate on the other, element by element, then
//! one projection down. Three matrices instead of two, so models that use it shrink the hidden
//! width to about 2/3 of chapter 5's `4 * d_model` to keep the parameter count (Llama 2 7B:
//! 11,008 for `d_model` 4,096). No biases, as in Llama.

use dfdx::nn::modules::UnbiasedLinear;
use dfdx::nn::{BuildModule, Module, ModuleVisitor, TensorCollection};
use dfdx::prelude::*;

/// `silu(z) = z * sigmoid(z)`, PyTorch's `F.silu`.
pub fn silu<S: Shape, Dev: Device<f32>, T: Tape<f32, Dev>>(
    z: Tensor<S, f32, Dev, T>,
) -> Tensor<S, f32, Dev, T> {
    z.retaped::<T>().sigmoid() * z
}

/// The gated feed-forward network of a Llama block.
///
/// # Generics
/// - `HIDDEN`: `hidden_size`, the width of the tokens in and out.
/// - `INTERMEDIATE`: `intermediate_size`, the hidden width of both up-projections.
/// - `E`: the element type of the weights (`f32`); `Dev`: the dfdx device.
///
/// PyTorch equivalent: Hugging Face's `LlamaMLP` (`gate_proj`, `up_proj`, `down_proj`, no bias,
/// `hidden_act="silu"`); the field names are its own.
// ANCHOR: swiglu
#[derive(Clone, Debug)]
pub struct SwiGlu<const HIDDEN: usize, const INTERMEDIATE: usize, E: Dtype, Dev: Storage<E>> {
    pub gate_proj: UnbiasedLinear<HIDDEN, INTERMEDIATE, E, Dev>,
    pub up_proj: UnbiasedLinear<HIDDEN, INTERMEDIATE, E, Dev>,
    pub down_proj: UnbiasedLinear<INTERMEDIATE, HIDDEN, E, Dev>,
}

impl<const HIDDEN: usize, const INTERMEDIATE: usize, Dev: Device<f32>>
    SwiGlu<HIDDEN, INTERMEDIATE, f32, Dev>
{
    pub fn forward<B: Dim, S: Dim, T: Tape<f32, Dev>>(
        &self,
        x: Tensor<(B, S, Const<HIDDEN>), f32, Dev, T>,
    ) -> Tensor<(B, S, Const<HIDDEN>), f32, Dev, T> {
        let up = self.up_proj.forward(x.retaped::<T>()); // (b, s, f)
        let gate = silu(self.gate_proj.forward(x)); // (b, s, f), each in (-0.28, inf)
        self.down_proj.forward(gate * up)
    }
}
// ANCHOR_END: swiglu

impl<const HIDDEN: usize, const INTERMEDIATE: usize, Dev: Device<f32>>
    SwiGlu<HIDDEN, INTERMEDIATE, f32, Dev>
{
    /// Uniform initialisation in `+-1/sqrt(fan_in)`, as `nn.Linear`.
    pub fn new(dev: &Dev) -> Self {
        BuildModule::build(dev)
    }
}

impl<const HIDDEN: usize, const INTERMEDIATE: usize, Dev: Device<f32>> TensorCollection<f32, Dev>
    for SwiGlu<HIDDEN, INTERMEDIATE, f32, Dev>
{
    type To<E2: Dtype, D2: Device<E2>> = SwiGlu<HIDDEN, INTERMEDIATE, E2, D2>;

    fn iter_tensors<V: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut V,
    ) -> Result<Option<Self::To<V::E2, V::D2>>, V::Err> {
        visitor.visit_fields(
            (
                Self::module("gate_proj", |s| &s.gate_proj, |s| &mut s.gate_proj),
                Self::module("up_proj", |s| &s.up_proj, |s| &mut s.up_proj),
                Self::module("down_proj", |s| &s.down_proj, |s| &mut s.down_proj),
            ),
            |(gate_proj, up_proj, down_proj)| SwiGlu { gate_proj, up_proj, down_proj },
        )
    }
}

//! The position-wise feed-forward network.

use dfdx::nn::modules::Linear;
use dfdx::nn::{BuildModule, Module, ModuleVisitor, ScalarOptions, TensorCollection};
use dfdx::prelude::*;

use crate::activation::Activation;
use crate::dropout::{dropout, Mode, DEFAULT_DROPOUT};

/// `Linear(d_model -> d_ff) -> activation -> dropout -> Linear(d_ff -> d_model)`, applied to every
/// token on its own (no token sees another here). The activation is ReLU unless set to GELU
/// ([`Activation`]).
///
/// # Generics
/// - `M`: `d_model`, the width of the tokens in and out.
/// - `F`: `d_ff`, the hidden width.
/// - `E`: the element type of the weights (`f32`); `Dev`: the dfdx device.
///
/// PyTorch equivalent: `linear1`, `activation`, `dropout` and `linear2` of
/// `nn.TransformerEncoderLayer`, or `nn.Sequential(nn.Linear(M, F), nn.ReLU(), nn.Dropout(p),
/// nn.Linear(F, M))`; `activation="gelu"` there is [`Activation::Gelu`] here.
// ANCHOR: ffn
#[derive(Clone, Debug)]
pub struct FeedForward<const M: usize, const F: usize, E: Dtype, Dev: Storage<E>> {
    pub linear1: Linear<M, F, E, Dev>,
    pub linear2: Linear<F, M, E, Dev>,
    /// between the two linear layers: ReLU (the default) or GELU
    pub activation: Activation,
    /// dropout after the activation
    pub dropout: f32,
}

impl<const M: usize, const F: usize, Dev: Device<f32>> FeedForward<M, F, f32, Dev> {
    pub fn forward<B: Dim, S: Dim, T: Tape<f32, Dev>>(
        &self,
        x: Tensor<(B, S, Const<M>), f32, Dev, T>,
        mode: Mode,
    ) -> Tensor<(B, S, Const<M>), f32, Dev, T> {
        let hidden = self.activation.apply(self.linear1.forward(x)); // (b, s, d_ff)
        self.linear2.forward(dropout(hidden, self.dropout, mode))
    }
}
// ANCHOR_END: ffn

impl<const M: usize, const F: usize, Dev: Device<f32>> FeedForward<M, F, f32, Dev> {
    /// PyTorch-style initialisation, ReLU, dropout 0.1.
    pub fn new(dev: &Dev) -> Self {
        BuildModule::build(dev)
    }

    /// The same network with another activation (`FeedForward::new(&dev).with(Activation::Gelu)`).
    pub fn with(self, activation: Activation) -> Self {
        Self { activation, ..self }
    }
}

impl<const M: usize, const F: usize, Dev: Device<f32>> TensorCollection<f32, Dev>
    for FeedForward<M, F, f32, Dev>
{
    type To<E2: Dtype, D2: Device<E2>> = FeedForward<M, F, E2, D2>;

    fn iter_tensors<V: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut V,
    ) -> Result<Option<Self::To<V::E2, V::D2>>, V::Err> {
        visitor.visit_fields(
            (
                Self::module("linear1", |s| &s.linear1, |s| &mut s.linear1),
                Self::module("linear2", |s| &s.linear2, |s| &mut s.linear2),
                Self::scalar(
                    "activation",
                    |s| &s.activation,
                    |s| &mut s.activation,
                    ScalarOptions::from_default(Activation::Relu),
                ),
                Self::scalar(
                    "dropout",
                    |s| &s.dropout,
                    |s| &mut s.dropout,
                    ScalarOptions::from_default(DEFAULT_DROPOUT),
                ),
            ),
            |(linear1, linear2, activation, dropout)| FeedForward {
                linear1,
                linear2,
                activation,
                dropout,
            },
        )
    }
}

//! Where the layer norm sits around a sub-layer (pre-norm or post-norm), and the residual
//! sub-layer that follows from it.

use dfdx::prelude::*;

use crate::dropout::{dropout, Mode};
use crate::norm::LayerNorm;

/// Where the layer norm sits around each sub-layer. A type parameter, so a stack can never mix the
/// two arrangements by accident; a block calls `P::residual(..)` and the type says which one runs.
// ANCHOR: sublayer
pub trait Placement: Clone + Copy + std::fmt::Debug + Default + Send + Sync + 'static {
    /// `true`: `x + f(norm(x))`; `false`: `norm(x + f(x))`.
    const PRE_NORM: bool;
    /// PyTorch's spelling of the same choice.
    const NORM_FIRST: bool = Self::PRE_NORM;

    /// One residual sub-layer: `f` is self-attention, cross-attention or the feed-forward network.
    ///
    /// Pre-norm: `x + dropout(f(norm(x)))`. Post-norm: `norm(x + dropout(f(x)))`.
    fn residual<B: Dim, S: Dim, const M: usize, Dev: Device<f32>, T: Tape<f32, Dev>>(
        x: Tensor<(B, S, Const<M>), f32, Dev, T>,
        norm: &LayerNorm<M, f32, Dev>,
        p_drop: f32,
        mode: Mode,
        f: impl FnOnce(Tensor<(B, S, Const<M>), f32, Dev, T>) -> Tensor<(B, S, Const<M>), f32, Dev, T>,
    ) -> Tensor<(B, S, Const<M>), f32, Dev, T> {
        // keep an untaped copy of x for the skip connection; the tape follows the sub-layer
        let (x, tape) = x.split_tape();
        let skip = x.clone();
        if Self::PRE_NORM {
            dropout(f(norm.forward(x.put_tape(tape))), p_drop, mode) + skip
        } else {
            norm.forward(dropout(f(x.put_tape(tape)), p_drop, mode) + skip)
        }
    }
}
// ANCHOR_END: sublayer

/// `x + SubLayer(LayerNorm(x))`: GPT-2, LLaMA, most current models; PyTorch's `norm_first=True`.
#[derive(Clone, Copy, Debug, Default)]
pub struct PreNorm;
/// `LayerNorm(x + SubLayer(x))`: the original Transformer; PyTorch's default `norm_first=False`.
#[derive(Clone, Copy, Debug, Default)]
pub struct PostNorm;

impl Placement for PreNorm {
    const PRE_NORM: bool = true;
}
impl Placement for PostNorm {
    const PRE_NORM: bool = false;
}

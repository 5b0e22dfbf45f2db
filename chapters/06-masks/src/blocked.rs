//! Masks in PyTorch's polarity, `true` = **blocked**, as a type of their own.

use dfdx::prelude::*;

use crate::data::check_len;
use crate::inspect::rows01;

// ANCHOR: blocked
/// A boolean mask in PyTorch's `nn.MultiheadAttention` polarity: `true` = **blocked** (its
/// `attn_mask` and `key_padding_mask`).
///
/// A type of its own, so that it cannot be passed where chapter 1's [`Mask`](crate::Mask)
/// (`true` = may attend) is expected: convert it with [`Blocked::to_allowed`].
///
/// # Generics
/// - `S`: the mask's shape, `(queries, keys)` or `(batch, keys)`.
/// - `Dev`: the dfdx device that holds it.
#[derive(Clone, Debug)]
pub struct Blocked<S: Shape, Dev: Device<f32>>(pub Tensor<S, bool, Dev>);

impl<S: Shape, Dev: Device<f32>> Blocked<S, Dev> {
    /// From a "may attend" mask: every entry flipped.
    pub fn from_allowed(allowed: Tensor<S, bool, Dev>) -> Self {
        Self(!allowed)
    }

    /// To a "may attend" mask (the book's convention): every entry flipped.
    pub fn to_allowed(self) -> Tensor<S, bool, Dev> {
        !self.0
    }
}
// ANCHOR_END: blocked

impl<S: Shape, Dev: Device<f32>> Blocked<S, Dev> {
    /// The `true` = blocked tensor itself.
    pub fn tensor(&self) -> &Tensor<S, bool, Dev> {
        &self.0
    }
}

impl<Dev: Device<f32>> Blocked<(usize, usize), Dev> {
    /// The mask as rows of 0 and 1, 1 = blocked (what PyTorch prints for `mask.int()`).
    pub fn rows01(&self) -> Vec<Vec<u8>> {
        rows01(&self.0)
    }
}

// ANCHOR: causal
/// Chapter 1's [`causal_allowed`](crate::causal_allowed) in PyTorch's polarity, `true` =
/// **blocked**: the strict upper triangle (`torch.triu(torch.ones(n, n), diagonal=1).bool()`),
/// what `nn.MultiheadAttention` takes as `attn_mask`.
///
/// # Panics
/// If `n == 0`.
pub fn causal_blocked<Dev: Device<f32>>(dev: &Dev, n: usize) -> Blocked<(usize, usize), Dev> {
    check_len("causal_blocked", n);
    // ones strictly above the diagonal (offset 1), zeros on and below it
    Blocked(dev.upper_tri_like(&(n, n), 1.0f32, 1).gt(0.5))
}
// ANCHOR_END: causal

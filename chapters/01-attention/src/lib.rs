//! # Chapter 1 — dot-product attention
//!
//! The chapter builds attention in three steps, and this crate has one module per step:
//!
//! 1. [`weightless`]: self-attention with no weights at all — dot products, softmax, weighted sum.
//! 2. [`attention`]: scaled dot-product attention as a reusable, batched, device-generic function
//!    over `(batch, heads, seq, d_k)` tensors, with an optional [`mask`] (`true` = may attend).
//! 3. [`scaling`]: why the `1/sqrt(d_k)` matters, measured on seeded random vectors.
//!
//! Everything is generic over the dfdx device, so `--features cuda` runs the same code on a GPU.
//!
//! Shape mistakes that PyTorch reports at run time are compile errors here: see [`shape_errors`].

pub mod attention;
#[cfg(not(target_arch = "wasm32"))] // figures are drawn natively; `web/` builds without plotting
pub mod figures;
pub mod mask;
pub mod scaling;

#[doc = include_str!("shape_errors.md")]
pub mod shape_errors {}
pub mod weightless;

pub use attention::{
    attention_with_fill, scaled_dot_product_attention, scaled_scores, Weights, DEFAULT_MASK_FILL,
};
pub use mask::{broadcast_mask, causal_allowed, keys_allowed, Mask};
pub use weightless::{simple_self_attention, SimpleAttention};

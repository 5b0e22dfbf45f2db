//! # Chapter 1 — dot-product attention
//!
//! The chapter builds attention in three steps, and this crate has one module per step:
//!
//! 1. [`weightless`]: self-attention with no weights at all — dot products, softmax, weighted sum.
//! 2. [`attention`]: scaled dot-product attention as a reusable, batched, device-generic function
//!    over `(batch, heads, seq, d_k)` tensors, with an optional mask.
//! 3. [`scaling`]: why the `1/sqrt(d_k)` matters, measured on seeded random vectors.
//!
//! Everything is generic over the dfdx device, so `--features cuda` runs the same code on a GPU.
//!
//! Shape mistakes that PyTorch reports at run time are compile errors here: see [`shape_errors`].

pub mod attention;
pub mod figures;
pub mod scaling;

#[doc = include_str!("shape_errors.md")]
pub mod shape_errors {}
pub mod weightless;

pub use attention::{
    attention_with_fill, broadcast_mask, causal_mask, key_padding_mask,
    scaled_dot_product_attention, scaled_scores, Mask, DEFAULT_MASK_FILL,
};
pub use weightless::{simple_self_attention, SimpleAttention};

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
//! Shapes are checked by the compiler. Multiplying queries by keys without the transpose does not
//! compile, because the inner dimensions (`Const<8>` and `usize`) are different types:
//!
//! ```compile_fail
//! use dfdx::prelude::*;
//! let dev: Cpu = Default::default();
//! let q: Tensor<(usize, Const<8>), f32, _> = dev.zeros_like(&(4, Const::<8>));
//! let k: Tensor<(usize, Const<8>), f32, _> = dev.zeros_like(&(4, Const::<8>));
//! let scores = q.matmul(k); // forgot `.permute()`: (4, 8) x (4, 8) is not a matrix product
//! ```
//!
//! and transposing the wrong pair of axes of a `(batch, heads, seq, d_k)` key is caught as well:
//!
//! ```compile_fail
//! use dfdx::prelude::*;
//! let dev: Cpu = Default::default();
//! let q: Tensor<(usize, Const<1>, usize, Const<8>), f32, _> = dev.zeros_like(&(2, Const::<1>, 5, Const::<8>));
//! let k = q.clone();
//! // swaps heads and seq instead of seq and d_k: the product is (.., 5, 8) x (.., 1, 8)
//! let scores = q.matmul(k.permute::<_, Axes4<0, 2, 1, 3>>());
//! ```
//!
//! The correct transpose compiles and gives `(batch, heads, seq, seq)` scores:
//!
//! ```
//! use dfdx::prelude::*;
//! let dev: Cpu = Default::default();
//! let q: Tensor<(usize, Const<1>, usize, Const<8>), f32, _> = dev.zeros_like(&(2, Const::<1>, 5, Const::<8>));
//! let k = q.clone();
//! let scores = q.matmul(k.permute::<_, Axes4<0, 1, 3, 2>>());
//! assert_eq!(scores.shape().concrete(), [2, 1, 5, 5]);
//! ```

pub mod attention;
pub mod figures;
pub mod scaling;
pub mod weightless;

pub use attention::{
    attention_with_fill, broadcast_mask, causal_mask, key_padding_mask, scaled_dot_product_attention, scaled_scores, Mask,
    DEFAULT_MASK_FILL,
};
pub use weightless::{simple_self_attention, SimpleAttention};

//! # Chapter 8 — Efficient attention
//!
//! Dense attention builds an `n x n` matrix of scores per head: its time and memory grow with the
//! square of the sequence. This crate measures that cost ([`cost`]) and implements the ways around
//! it, each tested equal to the dense computation with the same pattern ([`dense`]):
//!
//! * [`pattern`]: which keys a query may see: [`Full`], [`Causal`], [`SlidingWindow`],
//!   [`BigBird`]'s local + global + random blocks (sizes it cannot have: [`InvalidBigBird`]), any
//!   [`MaskPattern`];
//! * [`sliding`]: attention that visits only the allowed keys, one query at a time: O(n·w);
//! * [`linear`]: linear attention with the `elu + 1` feature map, and its causal form by prefix
//!   sums: O(n), and a different function from softmax attention;
//! * [`tiled`]: exact attention over tiles of keys with an online softmax, written to be read;
//! * [`fast`]: the same, fast: register-blocked products on packed tiles with the row operations
//!   fused between them, a vectorised `exp`, one path per instruction set, rayon over heads and tiles;
//! * [`gpu`]: the tiled kernel again, as a CUDA kernel of the book's own for NVIDIA GPUs;
//! * [`mha`]: chapter 3's multi-head attention and chapter 5's encoder on the fast kernel.
//!
//! All kernels work on [`Heads`]: `(heads, n, d)` row-major `f32`, the data of a dfdx tensor.

pub mod cost;
pub mod dense;
pub mod error;
pub mod fast;
#[cfg(not(target_arch = "wasm32"))] // figures are drawn natively; `web/` builds without plotting
pub mod figures;
pub mod gpu;
pub mod heads;
pub mod linear;
pub mod measure;
pub mod mha;
pub mod pattern;
pub mod quality;
pub mod sliding;
pub mod tiled;

pub use dense::dense;
pub use error::InvalidBigBird;
pub use fast::TILES;
pub use heads::Heads;
pub use pattern::{BigBird, Causal, Full, MaskPattern, Pattern, SlidingWindow};
pub use tiled::Tiles;

//! The decode path: SmolLM2 run token by token for generation, fast.
//!
//! Chapter 10's model runs on dfdx's tensors, which is what training needs and what the parity
//! tests check. Generating one token, though, is a product of every weight matrix with one
//! vector: the time goes into reading the weights from memory, 538 MB of them in `f32` per
//! token. This module runs the same layers on plain slices:
//!
//! * [`matrix`]: the weights in their stored form, `f32` or the file's own Q4_1 and Q8_0 blocks,
//!   each row read once per step and shared among the threads;
//! * [`kernels`]: the dot products, on chapter 8's run-time choice of instruction set;
//! * [`attention`]: one token's heads over the cache, or a prompt's tokens, on the same
//!   instruction sets;
//! * [`cache`]: a key/value cache allocated once, with StreamingLLM's policy as an option;
//! * [`sizes`]: the sizes both need;
//! * [`model`]: the forward pass, [`load`]: its weights from the file or a chapter 10 model, and
//!   [`lm`]: the pass as chapter 10's `LanguageModel`, for chat and perplexity.

pub mod attention;
pub mod cache;
pub mod kernels;
pub mod lm;
pub mod load;
pub mod matrix;
pub mod model;
pub mod sizes;

pub use cache::{Cache, Policy};
pub use load::Weights;
pub use matrix::Matrix;
pub use model::{Decoder, Keep, Profile};
pub use sizes::Sizes;

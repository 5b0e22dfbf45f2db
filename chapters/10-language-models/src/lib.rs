//! # Chapter 10 — attention in today's language models
//!
//! The book so far built the 2017 encoder-decoder. The models people meet today (GPT, Llama,
//! Mistral) are decoder-only, and their attention has changed in three places this crate builds:
//!
//! * [`rope`]: rotary position embedding, in both layouts in use, and [`permute`]: converting
//!   checkpoints between them;
//! * [`gqa`]: grouped-query attention, `HEADS` query heads over `KV_HEADS` key/value heads;
//! * [`cache`]: the KV cache, and its rolling-buffer form for sliding-window attention.
//!
//! Around them: [`rms`] (RMSNorm), [`swiglu`] (the gated feed-forward network), [`block`] (one
//! Llama layer), [`model`] (the whole causal language model, loading Hugging Face checkpoints),
//! [`mask`] (the causal mask by positions) and [`memory`] (what the cache costs real models).
//!
//! Sizes are part of the types. Query heads that do not split evenly into groups over the
//! key/value heads do not compile: 6 query heads cannot share 4 key/value heads,
//!
//! ```compile_fail,E0080
//! use ch10_language_models::GroupedQueryAttention;
//! let dev = support::Dev::default();
//! // 6 heads of 16 over 4 key/value heads: 6 is not a multiple of 4
//! let _ = GroupedQueryAttention::<96, 6, 4, 16, 64, f32, support::Dev>::new(&dev);
//! ```
//!
//! while 6 over 3 (groups of 2), over 6 (multi-head) and over 1 (multi-query) do:
//!
//! ```
//! use ch10_language_models::GroupedQueryAttention;
//! let dev = support::Dev::default();
//! let _ = GroupedQueryAttention::<96, 6, 3, 16, 48, f32, support::Dev>::new(&dev);
//! let _ = GroupedQueryAttention::<96, 6, 6, 16, 96, f32, support::Dev>::new(&dev);
//! let _ = GroupedQueryAttention::<96, 6, 1, 16, 16, f32, support::Dev>::new(&dev);
//! assert_eq!(GroupedQueryAttention::<96, 6, 3, 16, 48, f32, support::Dev>::GROUP, 2);
//! ```
//!
//! and neither does a key/value width that is not `KV_HEADS * HEAD_DIM`:
//!
//! ```compile_fail,E0080
//! use ch10_language_models::GroupedQueryAttention;
//! let dev = support::Dev::default();
//! // 2 key/value heads of 16 are 32 wide, not 64
//! let _ = GroupedQueryAttention::<64, 4, 2, 16, 64, f32, support::Dev>::new(&dev);
//! ```

pub mod bigram;
pub mod block;
pub mod cache;
pub mod chars;
pub mod cli;
pub mod cost;
pub mod error;
pub mod figures;
pub mod generate;
pub mod gqa;
pub mod mask;
pub mod memory;
pub mod model;
pub mod params;
pub mod permute;
pub mod presets;
pub mod reading;
pub mod report;
pub mod rms;
pub mod rope;
pub mod swiglu;
pub mod train;
pub mod trained;

pub use block::LlamaBlock;
pub use cache::{KvCache, LayerCache};
pub use chars::{decode, encode, VOCAB};
pub use error::CharOutOfVocab;
pub use generate::{generate, Recompute, Sampling};
pub use gqa::{repeat_kv, GroupedQueryAttention};
pub use mask::{may_attend, positions_allowed, Window};
pub use model::CausalLm;
pub use presets::TinyLlama;
pub use rms::RmsNorm;
pub use rope::{Rope, RopeLayout};
pub use swiglu::SwiGlu;
pub use train::TrainConfig;

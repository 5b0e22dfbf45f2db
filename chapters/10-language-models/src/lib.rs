//! # Chapter 10 — attention in today's language models
//!
//! The book so far built the 2017 encoder-decoder. The open models people run today (Llama,
//! Mistral, Qwen, SmolLM) differ from it in four places this crate builds: they are decoder-only,
//! positions enter through rotary position embedding, query heads share key/value heads, and text
//! is written with a KV cache (with a rolling buffer for a sliding window).
//!
//! The crate has three parts:
//!
//! * [`llama`], the model: [`llama::config`] (a model's sizes, named once, and the published
//!   configurations), [`llama::rope`] (rotary position embedding in both layouts) and
//!   [`llama::permute`] (converting checkpoints between them), [`llama::rms`] (RMSNorm),
//!   [`llama::swiglu`] (the gated feed-forward network), [`llama::gqa`] (grouped-query
//!   attention), [`llama::mask`] (the causal mask by positions, with a window),
//!   [`llama::cache`] (the KV cache and its rolling form), [`llama::block`] (one layer),
//!   [`llama::model`] (the whole causal language model), [`llama::checkpoint`] (what a
//!   checkpoint file must hold), [`llama::lm`] (what generation needs of a model),
//!   [`llama::generate`] (text, with or without the cache), [`llama::params`] and
//!   [`llama::memory`] (what a configuration costs in parameters and in cache);
//! * [`char_model`], the small model the chapter trains: [`char_model::chars`] (characters as
//!   tokens), [`char_model::bigram`] (the baseline), [`char_model::config`],
//!   [`char_model::train`], [`char_model::trained`] and [`char_model::report`] (the committed
//!   run), [`char_model::cli`] (the `generate` example's arguments);
//! * [`analysis`], what the page measures and reads off the trained model:
//!   [`analysis::cost`] (generation with and without the cache, timed),
//!   [`analysis::count`] (what a step costs by count), [`analysis::reading`] (where its heads
//!   look) and [`analysis::words`] (how much of what it writes is words of its text).
//!
//! [`figures`] draws the page's figures from committed files; [`error`] holds the errors.
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

pub mod analysis;
pub mod char_model;
pub mod error;
#[cfg(not(target_arch = "wasm32"))] // figures are drawn natively; `web/` builds without plotting
pub mod figures;
pub mod llama;

pub use char_model::chars::{decode, encode, VOCAB};
pub use char_model::config::TrainConfig;
pub use error::CharOutOfVocab;
pub use llama::block::LlamaBlock;
pub use llama::cache::{KvCache, LayerCache};
pub use llama::generate::{generate, Recompute, Sampling};
pub use llama::gqa::{repeat_kv, GroupedQueryAttention};
pub use llama::mask::{may_attend, positions_allowed, Window};
pub use llama::model::CausalLm;
pub use llama::presets::TinyLlama;
pub use llama::rms::RmsNorm;
pub use llama::rope::{Rope, RopeLayout};
pub use llama::swiglu::SwiGlu;

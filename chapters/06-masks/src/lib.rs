//! # Chapter 6 — masks
//!
//! A mask decides, for every query, which keys it may look at. Two kinds cover almost every use:
//!
//! * the **causal** (look-ahead) mask: position `i` sees positions `0..=i` and nothing later, so a
//!   decoder trained on a whole target sentence cannot peek at the word it must predict;
//! * the **padding** mask: the filler tokens that make the sequences of a batch one length are never
//!   looked at.
//!
//! **One convention for the whole book: a boolean mask is `true` where a query may attend to a
//! key.** That is chapter 1's [`Mask`], the `torch.tril(..)` masks of hand-written attention code
//! and the boolean `attn_mask` of `F.scaled_dot_product_attention`. Names say their polarity: a
//! builder named `..._allowed` ([`causal_allowed`], [`real_tokens_allowed`]) returns `true` = may
//! attend; the type [`Blocked`] and the builders named `..._blocked` hold the opposite polarity of
//! `nn.MultiheadAttention`'s `attn_mask` and `key_padding_mask`, `true` = blocked. Because
//! [`Blocked`] is its own type, the two cannot be mixed up without the compiler noticing: see
//! [`conventions`]. Float masks are *added* to the scores (`0` or `-inf`): [`additive()`].
//!
//! * [`data`]: the example batches [`SEQUENCES`] and [`TARGETS`], padded with [`PAD`];
//! * [`blocked`]: [`Blocked`] and [`causal_blocked`] (chapter 1 has [`causal_allowed`]);
//! * [`padding`]: [`real_tokens_allowed`] (`true` = real) and [`padding_blocked`] (`true` =
//!   padding);
//! * [`combine`]: full `(batch, heads, queries, keys)` masks for the three attentions of a
//!   Transformer: [`key_mask`], [`encoder_mask`], [`decoder_self_mask`], [`memory_mask`], all
//!   three at once in [`MaskSet`];
//! * [`additive`](mod@additive): [`additive()`], [`square_subsequent_mask`],
//!   [`attention_additive`];
//! * [`inspect`]: [`rows01`], [`rows01_of`], [`format01`], [`fully_masked_rows`].
//!
//! Every builder is generic over the dfdx device.

pub mod additive;
pub mod blocked;
pub mod combine;
pub mod data;
#[cfg(not(target_arch = "wasm32"))] // figures are drawn natively; `web/` builds without plotting
pub mod figures;
pub mod inspect;
pub mod padding;

#[doc = include_str!("conventions.md")]
pub mod conventions {}

pub use additive::{additive, attention_additive, square_subsequent_mask};
pub use blocked::{causal_blocked, Blocked};
pub use ch01_attention::{broadcast_mask, causal_allowed, keys_allowed, Mask, DEFAULT_MASK_FILL};
pub use combine::{decoder_self_mask, encoder_mask, key_mask, memory_mask, MaskSet};
pub use data::{PAD, SEQUENCES, TARGETS};
pub use inspect::{format01, fully_masked_rows, rows01, rows01_of};
pub use padding::{padding_blocked, real_tokens_allowed};

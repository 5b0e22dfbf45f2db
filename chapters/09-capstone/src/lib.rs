//! # Chapter 9 — Capstone: a Transformer that reverses sequences
//!
//! Chapter 5's encoder-decoder, sized to 169,933 parameters, trained from scratch with chapter 6's
//! masks to reverse sequences of digits, then read: its decoder's cross-attention, per layer and
//! head.
//!
//! * [`vocab`]: PAD, SOS, EOS and the ten digits; input checks;
//! * [`config`]: [`TrainConfig`], everything that decides a training run, and its schedule;
//! * [`data`]: seeded random sequences, the validation, test and longer sets of a configuration,
//!   padded batches;
//! * [`presets`]: the configuration the book runs: [`Reverser`] and its sizes,
//!   [`TrainConfig::reversal`];
//! * [`model`]: a fresh [`Reverser`] and its parameter table;
//! * [`train`](mod@train): teacher forcing, cross-entropy with optional label smoothing, Adam with
//!   warm-up: [`train()`] and [`Trainer`];
//! * [`decode`]: greedy decoding and exact-sequence accuracy;
//! * [`evaluate`]: accuracy per length, recomputed from the weights;
//! * [`attention`]: the decoder's cross-attention, read;
//! * [`report`], [`trained`]: what a training run records, and the committed model;
//! * [`error`]: [`InvalidDigits`], and [`LoadError`] for committed files that do not load.

pub mod attention;
pub mod config;
pub mod data;
pub mod decode;
pub mod error;
pub mod evaluate;
pub mod explorer;
#[cfg(not(target_arch = "wasm32"))] // figures are drawn natively; `web/` builds without plotting
pub mod figures;
pub mod model;
pub mod presets;
pub mod report;
pub mod train;
pub mod trained;
pub mod vocab;

pub use config::TrainConfig;
pub use error::{InvalidDigits, LoadError};
pub use model::new_model;
pub use presets::{Reverser, D_FF, D_MODEL, HEADS, LAYERS, MAX_DIGITS, MAX_LEN};
pub use train::{train, Trainer};

//! # Chapter 9 — Capstone: a Transformer that reverses sequences
//!
//! Chapter 5's encoder-decoder, sized to 169,933 parameters, trained from scratch with chapter 6's
//! masks to reverse sequences of digits, then read: its decoder's cross-attention, per layer and
//! head.
//!
//! * [`vocab`]: PAD, SOS, EOS and the ten digits; input checks;
//! * [`data`]: seeded random sequences, the held-out set, padded batches;
//! * [`model`]: [`Reverser`], the parameter count part by part;
//! * [`train`]: teacher forcing, cross-entropy with optional label smoothing, Adam with warm-up;
//! * [`decode`]: greedy decoding and exact-sequence accuracy.

pub mod attention;
pub mod data;
pub mod decode;
pub mod explorer;
pub mod figures;
pub mod model;
pub mod report;
pub mod train;
pub mod trained;
pub mod vocab;

pub use model::{new_model, Reverser, MAX_DIGITS, MAX_LEN};
pub use train::{TrainConfig, Trainer};

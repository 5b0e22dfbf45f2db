//! ch14-modern-attention's integration tests, in one binary (one link of dfdx instead of one per file).
//! `cargo test -p ch14-modern-attention` runs them all; `cargo test -p ch14-modern-attention MODULE::` runs one file's.

mod cache_cost;
mod decode_speed;
mod figures;
mod gated;
mod local_global;
mod mla;
mod published;
mod qk_norm;
mod sinks;
mod variants;
mod worked_examples;

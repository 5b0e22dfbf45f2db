//! ch10-language-models's integration tests, in one binary (one link of dfdx instead of one per file).
//! `cargo test -p ch10-language-models` runs them all; `cargo test -p ch10-language-models MODULE::` runs one file's.

mod cache;
mod checkpoint;
mod common;
mod figures;
#[cfg(feature = "cuda")]
mod gpu_consistency;
mod gqa;
mod hf_parity;
mod memory;
mod norms;
mod permute;
mod rope;
mod text;
mod training;
mod worked_examples;

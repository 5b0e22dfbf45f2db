//! ch07-vit's integration tests, in one binary (one link of dfdx instead of one per file).
//! `cargo test -p ch07-vit` runs them all; `cargo test -p ch07-vit MODULE::` runs one file's.

mod digits;
mod evaluation;
mod figures;
mod model;
mod patch_embedding;
mod pytorch_parity;
mod training;

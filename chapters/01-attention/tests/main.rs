//! ch01-attention's integration tests, in one binary (one link of dfdx instead of one per file).
//! `cargo test -p ch01-attention` runs them all; `cargo test -p ch01-attention MODULE::` runs one file's.

mod figures;
mod properties;
mod worked_examples;

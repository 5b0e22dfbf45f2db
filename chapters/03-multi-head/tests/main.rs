//! ch03-multi-head's integration tests, in one binary (one link of dfdx instead of one per file).
//! `cargo test -p ch03-multi-head` runs them all; `cargo test -p ch03-multi-head MODULE::` runs one file's.

mod figures;
mod properties;
mod pytorch_parity;
mod worked_examples;

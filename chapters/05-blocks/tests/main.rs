//! ch05-blocks's integration tests, in one binary (one link of dfdx instead of one per file).
//! `cargo test -p ch05-blocks` runs them all; `cargo test -p ch05-blocks MODULE::` runs one file's.

mod activation;
mod encode_decode;
mod figures;
mod gradients;
mod param_counts;
mod properties;
mod pytorch_parity;
mod worked_examples;

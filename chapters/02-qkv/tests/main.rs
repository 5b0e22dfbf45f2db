//! ch02-qkv's integration tests, in one binary (one link of dfdx instead of one per file).
//! `cargo test -p ch02-qkv` runs them all; `cargo test -p ch02-qkv MODULE::` runs one file's.

mod figures;
mod properties;
mod worked_examples;

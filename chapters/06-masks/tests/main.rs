//! ch06-masks's integration tests, in one binary (one link of dfdx instead of one per file).
//! `cargo test -p ch06-masks` runs them all; `cargo test -p ch06-masks MODULE::` runs one file's.

mod figures;
mod properties;
mod worked_examples;

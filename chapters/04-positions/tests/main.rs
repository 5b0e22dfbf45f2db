//! ch04-positions's integration tests, in one binary (one link of dfdx instead of one per file).
//! `cargo test -p ch04-positions` runs them all; `cargo test -p ch04-positions MODULE::` runs one file's.

mod figures;
mod properties;
mod worked_examples;

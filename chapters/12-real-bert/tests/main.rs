//! ch12-real-bert's integration tests, in one binary (one link of dfdx instead of one per file).
//! `cargo test -p ch12-real-bert` runs them all; `cargo test -p ch12-real-bert MODULE::` runs one file's.
//! The tests that need the model's files are `#[ignore]`d: `cargo xtask models` fetches them,
//! `cargo xtask test` runs them.

mod figures;
mod looks;
mod padding_lesson;
mod parity;
mod real_model;
mod search;
mod speed_table;
mod tiny;
mod tokenizer_parity;
mod tokenizer_rules;
mod worked_examples;

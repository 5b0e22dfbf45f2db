//! ch13-real-whisper's integration tests, in one binary (one link of dfdx instead of one per file).
//! `cargo test -p ch13-real-whisper` runs them all; `cargo test -p ch13-real-whisper MODULE::` runs
//! one file's. The tests that need the model's files are `#[ignore]`d: `cargo xtask models`
//! fetches them, `cargo xtask test` runs them.

mod ct2_reader;
mod fast;
mod figures;
mod heads;
mod hf_parity;
mod mel;
mod real_model;
mod speed_table;
mod wav;
mod worked_examples;

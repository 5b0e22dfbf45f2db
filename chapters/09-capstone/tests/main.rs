//! ch09-capstone's integration tests, in one binary (one link of dfdx instead of one per file).
//! `cargo test -p ch09-capstone` runs them all; `cargo test -p ch09-capstone MODULE::` runs one file's.

mod attention;
mod explorer;
mod figures;
mod gpu_consistency;
mod model;
mod report;
mod training;
mod weights;

//! ch08-efficient's integration tests, in one binary (one link of dfdx instead of one per file).
//! `cargo test -p ch08-efficient` runs them all; `cargo test -p ch08-efficient MODULE::` runs one file's.

mod comparisons;
mod cost;
mod drop_in;
mod equality;
mod figures;
#[cfg(feature = "cuda")]
mod gpu_kernel;
mod gpu_kernels_run;
// the CPU stand-in needs a C compiler, which a GPU machine may lack; there gpu_kernel runs instead
#[cfg(not(feature = "cuda"))]
mod gpu_on_host;
mod measurement_tables;
mod measurements;
mod paths;
mod worked_examples;

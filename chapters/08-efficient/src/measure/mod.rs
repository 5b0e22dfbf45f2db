//! Measurement, kept apart from the kernels: what is timed ([`method`]), where the fast kernel's
//! time goes ([`breakdown`]), the CPU's own fused multiply-add limit ([`peak`]), the committed
//! numbers with the tables and plots made from them ([`results`], read from `measurements/`), and
//! the PyTorch comparison's runs ([`comparison`], read from `measurements/pytorch/`), and the GPU
//! comparison's ([`gpu`], read from `measurements/gpu/`, with the chapter's own CUDA kernels in
//! [`gpu_kernels`]).
//! `cargo xtask bench ch08` runs the criterion benchmark in `benches/` and writes `measurements/`.

pub mod breakdown;
pub mod comparison;
pub mod gpu;
pub mod gpu_kernels;
pub mod method;
pub mod peak;
pub mod results;

pub use breakdown::{breakdown, breakdown_on, Breakdown};
pub use comparison::{pytorch_run, pytorch_runs, pytorch_tables};
pub use gpu::{gpu_run, gpu_tables, GpuRun};
pub use method::{inputs, inputs_batched, sliding_keys, Method, D, HEADS, WINDOW};
pub use peak::{peak, Limits, PathLimits, Peak};
pub use results::{limits_run, limits_tables, measured, Measured};

//! Measurement, kept apart from the kernels: what is timed ([`method`]), where the fast kernel's
//! time goes ([`breakdown`]), and the committed numbers with the tables and plots made from them
//! ([`results`], read from `measurements/`). `cargo xtask bench ch08` runs the criterion
//! benchmark in `benches/` and writes `measurements/`.

pub mod breakdown;
pub mod method;
pub mod results;

pub use breakdown::{breakdown, Breakdown};
pub use method::{inputs, inputs_batched, sliding_keys, Method, D, HEADS, WINDOW};
pub use results::{measured, pytorch_results, Measured};

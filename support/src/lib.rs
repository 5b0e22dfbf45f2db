//! Small helpers that every chapter of *Attention in Rust* needs.
//!
//! * [`fmt`]: print tensors rounded the way the PyTorch articles print them.
//! * [`check`]: `assert_close` for slices and tensors, with messages that name the element.
//! * [`plot`]: attention heatmaps and simple charts, rendered to SVG with plotters, shown inline in
//!   evcxr notebooks and written to the book's `figures/` folder.
//!
//! Nothing here knows about attention: chapters depend on this crate, never the other way round.

pub mod check;
pub mod fmt;
pub mod plot;

pub use check::{assert_close, assert_close_tensor, max_abs_diff};
pub use fmt::{format_tensor, round_to};
pub use plot::{BarChart, Heatmap, LineChart, Svg};

/// The device every example, test and notebook runs on: the CPU, or the GPU with `--features cuda`.
pub type Dev = dfdx::tensor::AutoDevice;

/// A device seeded for reproducible numbers (`Cpu::seed_from_u64` / `Cuda::seed_from_u64`).
pub fn seeded_device(seed: u64) -> Dev {
    dfdx::tensor::AutoDevice::seed_from_u64(seed)
}

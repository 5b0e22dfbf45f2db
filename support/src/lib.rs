//! Small helpers that every chapter of *Attention in Rust* needs.
//!
//! * [`fmt`]: print tensors rounded and laid out as PyTorch prints them.
//! * [`check`]: `assert_close` for slices and tensors, with messages that name the element.
//! * [`fixtures`]: read reference values exported from PyTorch as JSON.
//! * [`normal_tensor`], [`normal_vec`], [`seeded_device`]: reproducible numbers on every device;
//!   [`box_muller`] ([`normal`]): the one Box–Muller transform they and chapter 7 draw with.
//! * [`params`]: parameter tables whose formulas evaluate to their numbers.
//! * [`machine`]: the CPU, cores and instruction sets a measurement ran on; [`fit`]: the
//!   growth rate of a measured cost; [`rounds`]: the best, median and spread of timed rounds;
//!   [`speed`]: a speed comparison committed per machine, read, checked and put into words.
//! * [`models`]: where the published models are kept (the cache `cargo xtask models` fills);
//!   [`cli`]: an example's arguments as text ([`cli::args_or_exit`]) and its one-line error
//!   with exit status 2 ([`cli::or_exit`]).
//! * [`train`]: the end of a training step ([`optimizer_step`]) and [`argmax`];
//!   [`saved`]: a committed training run ([`saved::Committed`]), its weights and report saved
//!   as a pair, whole or not at all, even when killed mid-save ([`SaveError`]), and read back
//!   ([`LoadError`]).
//! * [`plot`]: attention heatmaps and simple charts, rendered to SVG with plotters, shown inline in
//!   evcxr notebooks and written to the book's `figures/` folder.
//!
//! Nothing here knows about attention: chapters depend on this crate, never the other way round.

pub mod check;
pub mod cli;
pub mod clock;
pub mod damage;
pub mod error;
pub mod fit;
pub mod fixtures;
pub mod fmt;
pub mod machine;
pub mod models;
pub mod normal;
pub mod params;
// plotters draws through the browser's canvas in WebAssembly (wasm-bindgen): the book's widgets draw
// for themselves, and the wasm build of the chapters (`web/`) leaves plotting out
#[cfg(not(target_arch = "wasm32"))]
pub mod plot;
pub mod rounds;
pub mod saved;
pub mod speed;
pub mod train;

pub use check::{
    assert_close, assert_close_tensor, assert_reading, assert_same_run, max_abs_diff,
    max_relative_diff, ON_GPU,
};
pub use error::{LoadError, SaveError};
pub use fmt::{format_tensor, round_to};
pub use normal::{box_muller, normal_tensor, normal_vec};
#[cfg(not(target_arch = "wasm32"))]
pub use plot::{
    assert_figures_current, book_figures_dir, side_by_side, write_book_figures, BarChart, Heatmap,
    LineChart, Svg,
};
pub use train::{argmax, optimizer_step};

/// The device every example, test and notebook runs on: the CPU, or the GPU with `--features cuda`.
pub type Dev = dfdx::tensor::AutoDevice;

/// A device seeded for reproducible numbers (`Cpu::seed_from_u64` / `Cuda::seed_from_u64`).
pub fn seeded_device(seed: u64) -> Dev {
    dfdx::tensor::AutoDevice::seed_from_u64(seed)
}

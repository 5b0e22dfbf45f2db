//! Small helpers that every chapter of *Attention in Rust* needs.
//!
//! * [`fmt`]: print tensors rounded and laid out as PyTorch prints them.
//! * [`check`]: `assert_close` for slices and tensors, with messages that name the element.
//! * [`fixtures`]: read reference values exported from PyTorch as JSON.
//! * [`normal_tensor`], [`normal_vec`], [`seeded_device`]: reproducible numbers on every device.
//! * [`params`]: parameter tables whose formulas evaluate to their numbers.
//! * [`machine`]: the CPU, cores and instruction sets a measurement ran on; [`fit`]: the
//!   growth rate of a measured cost.
//! * [`train`]: the end of a training step ([`optimizer_step`]) and [`argmax`];
//!   [`saved`]: reading back what a training run saved, failing with a [`LoadError`].
//! * [`plot`]: attention heatmaps and simple charts, rendered to SVG with plotters, shown inline in
//!   evcxr notebooks and written to the book's `figures/` folder.
//!
//! Nothing here knows about attention: chapters depend on this crate, never the other way round.

pub mod check;
pub mod error;
pub mod fit;
pub mod fixtures;
pub mod fmt;
pub mod machine;
pub mod params;
pub mod plot;
pub mod saved;
pub mod train;

pub use check::{assert_close, assert_close_tensor, max_abs_diff};
pub use error::LoadError;
pub use fmt::{format_tensor, round_to};
pub use plot::{
    assert_figures_current, book_figures_dir, write_book_figures, BarChart, Heatmap, LineChart, Svg,
};
pub use train::{argmax, optimizer_step};

/// The device every example, test and notebook runs on: the CPU, or the GPU with `--features cuda`.
pub type Dev = dfdx::tensor::AutoDevice;

/// A device seeded for reproducible numbers (`Cpu::seed_from_u64` / `Cuda::seed_from_u64`).
pub fn seeded_device(seed: u64) -> Dev {
    dfdx::tensor::AutoDevice::seed_from_u64(seed)
}

/// `n` standard-normal samples from a seeded `StdRng` (Box–Muller), the same on every device and
/// platform: use it to build reproducible inputs with `dev.tensor_from_vec`.
pub fn normal_vec(seed: u64, n: usize) -> Vec<f32> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n + 1);
    while out.len() < n {
        // u1 in (0, 1] so ln(u1) is finite
        let u1: f64 = 1.0 - rng.gen::<f64>();
        let u2: f64 = rng.gen::<f64>();
        let r = (-2.0 * u1.ln()).sqrt();
        let t = 2.0 * std::f64::consts::PI * u2;
        out.push((r * t.cos()) as f32);
        out.push((r * t.sin()) as f32);
    }
    out.truncate(n);
    out
}

/// A tensor of `shape` filled with [`normal_vec`]`(seed, ..)`: the same numbers on every device.
///
/// ```
/// use dfdx::prelude::*;
/// let dev = support::Dev::default();
/// let x = support::normal_tensor(&dev, 7, (2, 3, Const::<4>));
/// assert_eq!(x.shape().concrete(), [2, 3, 4]);
/// assert_eq!(x.as_vec(), support::normal_vec(7, 24));
/// ```
pub fn normal_tensor<S: dfdx::shapes::Shape, D: dfdx::tensor::TensorFromVec<f32>>(
    dev: &D,
    seed: u64,
    shape: S,
) -> dfdx::tensor::Tensor<S, f32, D> {
    dev.tensor_from_vec(normal_vec(seed, shape.num_elements()), shape)
}

#[cfg(test)]
mod tests {
    #[test]
    fn normal_vec_is_seeded_and_standard() {
        let a = super::normal_vec(7, 20_000);
        assert_eq!(a, super::normal_vec(7, 20_000));
        assert_ne!(a[..4], super::normal_vec(8, 4)[..]);
        let mean = a.iter().map(|&x| x as f64).sum::<f64>() / a.len() as f64;
        let var = a.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / a.len() as f64;
        assert!(mean.abs() < 0.03, "mean {mean}");
        assert!((var - 1.0).abs() < 0.05, "variance {var}");
    }
}

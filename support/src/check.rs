//! Numeric comparisons for tests, with messages that say where and by how much.

use dfdx::prelude::*;

/// The largest absolute difference between two equally long slices.
pub fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len(), "max_abs_diff: lengths differ ({} vs {})", a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

/// Asserts that every `actual[i]` is within `tol` of `expected[i]` (and that both have the same
/// length). NaN never compares close, so a NaN in `actual` always fails.
#[track_caller]
pub fn assert_close(actual: &[f32], expected: &[f32], tol: f32) {
    assert_eq!(
        actual.len(),
        expected.len(),
        "assert_close: got {} values, expected {}",
        actual.len(),
        expected.len()
    );
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        let ok = (a - e).abs() <= tol;
        assert!(
            ok,
            "assert_close: element {i} is {a}, expected {e} (|diff| = {} > tol {tol})\n actual:   {actual:?}\n expected: {expected:?}",
            (a - e).abs()
        );
    }
}

/// [`assert_close`] for a tensor on any device against a flat row-major list of expected values.
#[track_caller]
pub fn assert_close_tensor<S: Shape, D: Device<f32>, T>(
    actual: &Tensor<S, f32, D, T>,
    expected: &[f32],
    tol: f32,
) {
    assert_close(&actual.as_vec(), expected, tol);
}

/// Whether this build computes on a GPU (`--features cuda`). There cuBLAS sums a matrix product in
/// another order than the CPU's gemm, and dfdx's CUDA kernels add some gradients with atomics,
/// whose order varies from run to run: results can differ from the CPU's in the last bits.
pub const ON_GPU: bool = cfg!(feature = "cuda");

/// Two runs of the same seeded computation (a rerun of a committed training curve, say): equal
/// bit for bit on the CPU; on a GPU ([`ON_GPU`]) each value within `gpu_relative` of `expected`,
/// relative to its size. The tolerance is the caller's, measured on a GPU and documented there.
#[track_caller]
pub fn assert_same_run(actual: &[f32], expected: &[f32], gpu_relative: f32) {
    assert_same_run_on(ON_GPU, actual, expected, gpu_relative);
}

#[track_caller]
fn assert_same_run_on(gpu: bool, actual: &[f32], expected: &[f32], gpu_relative: f32) {
    assert_eq!(actual.len(), expected.len(), "{actual:?} vs {expected:?}");
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        if gpu {
            let ok = (a - e).abs() <= gpu_relative * e.abs();
            assert!(ok, "value {i}: {a} vs {e}, beyond the GPU's relative {gpu_relative}");
        } else {
            assert_eq!(a.to_bits(), e.to_bits(), "value {i}: {a} vs {e}, not bit for bit");
        }
    }
}

/// The largest difference between a reading recomputed now and the committed one, relative to
/// the committed value's size.
pub fn max_relative_diff(actual: &[f64], committed: &[f64]) -> f64 {
    assert_eq!(
        actual.len(),
        committed.len(),
        "{} values against {} committed",
        actual.len(),
        committed.len()
    );
    actual
        .iter()
        .zip(committed)
        .map(|(a, c)| (a - c).abs() / c.abs().max(f64::MIN_POSITIVE))
        .fold(0.0, f64::max)
}

/// A committed reading recomputed on this machine: every value within `relative` of the committed
/// one. Not bit for bit: the kernels sum in another order on each instruction set (portable, AVX2,
/// AVX-512, WebAssembly) and on a GPU, so the caller's `relative` is the spread measured across
/// them (`ATTENTION_ISA` forces each path), with a margin. Prints the difference it found.
#[track_caller]
pub fn assert_reading(what: &str, actual: &[f64], committed: &[f64], relative: f64) {
    let diff = max_relative_diff(actual, committed);
    println!("{what}: largest relative difference from the committed reading {diff:.2e} (allowed {relative:.0e})");
    assert!(
        diff <= relative && actual.iter().all(|a| a.is_finite()),
        "{what}: the committed reading is stale or this machine computes it differently: {diff:.3e} > {relative:.0e}\n now:       {actual:?}\n committed: {committed:?}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_within_tolerance() {
        assert_close(&[1.0, 2.0], &[1.0004, 1.9996], 1e-3);
        assert_eq!(max_abs_diff(&[1.0, 2.0], &[1.5, 2.0]), 0.5);
    }

    #[test]
    #[should_panic(expected = "element 1 is 2.1")]
    fn rejects_outside_tolerance() {
        assert_close(&[1.0, 2.1], &[1.0, 2.0], 1e-3);
    }

    #[test]
    #[should_panic(expected = "element 0 is NaN")]
    fn nan_is_never_close() {
        assert_close(&[f32::NAN], &[0.0], 1.0);
    }

    #[test]
    #[should_panic(expected = "got 1 values, expected 2")]
    fn rejects_length_mismatch() {
        assert_close(&[1.0], &[1.0, 2.0], 1.0);
    }

    #[test]
    fn a_reading_is_close_relative_to_its_size() {
        assert_reading("r", &[40.939978864, 1.0], &[40.939977508, 1.0], 1e-7);
        assert!((max_relative_diff(&[2.0], &[2.2]) - 1.0 / 11.0).abs() < 1e-12);
        let far = std::panic::catch_unwind(|| assert_reading("r", &[41.0], &[40.0], 1e-3));
        assert!(far.is_err(), "2.5 % is beyond a relative 1e-3");
        let nan = std::panic::catch_unwind(|| assert_reading("r", &[f64::NAN], &[1.0], 1.0));
        assert!(nan.is_err(), "NaN is no reading");
    }

    #[test]
    fn a_rerun_is_bit_for_bit_on_the_cpu_and_relative_on_a_gpu() {
        let next = f32::from_bits(2.5f32.to_bits() + 1);
        assert_same_run_on(false, &[2.5], &[2.5], 0.0);
        assert_same_run_on(true, &[next], &[2.5], 1e-6);
        let cpu = std::panic::catch_unwind(|| assert_same_run_on(false, &[next], &[2.5], 1.0));
        assert!(cpu.is_err(), "one bit apart is not the same run on the CPU");
        let gpu = std::panic::catch_unwind(|| assert_same_run_on(true, &[2.6], &[2.5], 1e-3));
        assert!(gpu.is_err(), "4 % apart is beyond a relative 1e-3");
    }
}

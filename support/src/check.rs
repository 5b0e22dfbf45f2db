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
}

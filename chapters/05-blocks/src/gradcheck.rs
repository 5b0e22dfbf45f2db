//! Checking autodiff against the definition of a derivative.
//!
//! dfdx records every operation of a forward pass on a tape and replays it backwards. For code
//! written from scratch (our attention, our layer norm) it is worth checking once that what comes
//! back is the true gradient: nudge one input at a time by `±h` and look at how the loss moves.

/// The gradient of a scalar function by central differences:
/// `(f(x + h e_i) - f(x - h e_i)) / 2h` for every coordinate `i`.
///
/// The error is of order `h²` (from the third derivative) plus `ε·|f| / h` from rounding, with
/// `ε ≈ 1e-7` in `f32`; `h = 1e-2` balances the two for losses of order 1.
// ANCHOR: finite_differences
pub fn finite_differences(x: &[f32], h: f32, f: impl Fn(&[f32]) -> f32) -> Vec<f32> {
    let mut probe = x.to_vec();
    (0..x.len())
        .map(|i| {
            probe[i] = x[i] + h;
            let up = f(&probe) as f64;
            probe[i] = x[i] - h;
            let down = f(&probe) as f64;
            probe[i] = x[i];
            ((up - down) / (2.0 * h as f64)) as f32
        })
        .collect()
}
// ANCHOR_END: finite_differences

/// [`finite_differences`] for a function with kinks, such as a network with a ReLU inside. Next to
/// its value, `f` returns which side of every kink the point lies on (for a ReLU: the sign of each
/// of its inputs). Where the two probes `x ± h e_i` lie on different sides of a kink, the central
/// difference straddles it and is no derivative: that coordinate is `None`.
// ANCHOR: with_kinks
pub fn finite_differences_with_kinks(
    x: &[f32],
    h: f32,
    f: impl Fn(&[f32]) -> (f32, Vec<bool>),
) -> Vec<Option<f32>> {
    let mut probe = x.to_vec();
    (0..x.len())
        .map(|i| {
            probe[i] = x[i] + h;
            let (up, up_sides) = f(&probe);
            probe[i] = x[i] - h;
            let (down, down_sides) = f(&probe);
            probe[i] = x[i];
            let smooth = up_sides == down_sides;
            smooth.then(|| ((up as f64 - down as f64) / (2.0 * h as f64)) as f32)
        })
        .collect()
}
// ANCHOR_END: with_kinks

/// The largest `|a - b| / max(1, |b|)` over two gradients: absolute for small entries, relative
/// for large ones.
pub fn max_relative_error(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len(), "gradients of different lengths");
    a.iter().zip(b).map(|(x, y)| (x - y).abs() / y.abs().max(1.0)).fold(0.0, f32::max)
}

#[cfg(test)]
mod tests {
    #[test]
    fn finite_differences_of_a_cubic() {
        // d/dx (x^3 + 2y) = (3x^2, 2); the central difference of a cubic is off by exactly h^2
        let g = super::finite_differences(&[2.0, 5.0], 1e-2, |v| v[0].powi(3) + 2.0 * v[1]);
        assert!((g[0] - 12.0001).abs() < 2e-3, "{g:?}");
        assert!((g[1] - 2.0).abs() < 1e-3, "{g:?}");
    }

    #[test]
    fn a_kink_between_the_probes_is_skipped() {
        // relu(x) at 0.005 and at 1: the probes of the first straddle the kink at 0
        let relu = |v: &[f32]| (v.iter().map(|x| x.max(0.0)).sum(), vec![v[0] > 0.0, v[1] > 0.0]);
        let g = super::finite_differences_with_kinks(&[0.005, 1.0], 1e-2, relu);
        assert_eq!(g[0], None);
        assert!((g[1].unwrap() - 1.0).abs() < 1e-3, "{g:?}");
    }
}

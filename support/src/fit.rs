//! Reading a growth rate off measurements: how fast a cost grows with a size.

/// The least-squares slope of `ln(cost)` against `ln(size)` over `(size, cost)` points: the
/// exponent `p` of a cost that grows as `size^p` (1 for linear growth, 2 for quadratic).
///
/// ```
/// let quadratic: Vec<(f64, f64)> = [1.0, 2.0, 4.0, 8.0].iter().map(|&n| (n, 3.0 * n * n)).collect();
/// assert!((support::fit::loglog_slope(&quadratic) - 2.0).abs() < 1e-12);
/// ```
///
/// # Panics
/// With fewer than two distinct sizes (there is no slope), or a size or cost that is not positive.
pub fn loglog_slope(points: &[(f64, f64)]) -> f64 {
    assert!(
        points.iter().all(|&(n, c)| n > 0.0 && c > 0.0),
        "loglog_slope: sizes and costs must be positive"
    );
    let pts: Vec<(f64, f64)> = points.iter().map(|&(n, c)| (n.ln(), c.ln())).collect();
    let k = pts.len() as f64;
    let (mx, my) =
        (pts.iter().map(|p| p.0).sum::<f64>() / k, pts.iter().map(|p| p.1).sum::<f64>() / k);
    let cov: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let var: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    assert!(var > 0.0, "loglog_slope: needs at least two distinct sizes");
    cov / var
}

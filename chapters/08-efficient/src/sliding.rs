//! Attention that visits, for each query, only the keys its pattern allows: work and memory
//! O(n·w) for a window of `w`, never an `n x n` matrix. Written to be read: one query at a time.

use crate::heads::{dot, per_head, softmax_in_place, Heads};
use crate::pattern::{Pattern, SlidingWindow};

// ANCHOR: sliding_window
/// Sliding-window attention of one head: query `i` attends to the keys `window.keys(i, n)` only.
/// `q`, `k`, `v` hold `n` rows of `d` (values: `dv`) values each. The scores of one query, at
/// most `2w + 1` numbers, are the only scratch memory.
pub fn sliding_window_head(
    q: &[f32],
    k: &[f32],
    v: &[f32],
    (n, d, dv): (usize, usize, usize),
    window: SlidingWindow,
) -> Vec<f32> {
    let scale = 1.0 / (d as f32).sqrt();
    let mut out = vec![0.0; n * dv];
    let mut scores = Vec::with_capacity(2 * window.w + 1);
    for i in 0..n {
        let keys = window.keys(i, n);
        let qi = &q[i * d..(i + 1) * d];
        scores.clear();
        scores.extend(keys.clone().map(|j| dot(qi, &k[j * d..(j + 1) * d]) * scale));
        softmax_in_place(&mut scores);
        let zi = &mut out[i * dv..(i + 1) * dv];
        for (j, &p) in keys.zip(&scores) {
            for (z, x) in zi.iter_mut().zip(&v[j * dv..(j + 1) * dv]) {
                *z += p * x;
            }
        }
    }
    out
}
// ANCHOR_END: sliding_window

/// The same for any pattern: query `i` attends to the keys of `pattern.key_ranges(i, i + 1)`
/// that `pattern.allowed(i, j)`. Work per query: the keys it sees.
pub fn sparse_head(
    q: &[f32],
    k: &[f32],
    v: &[f32],
    (n, d, dv): (usize, usize, usize),
    pattern: &dyn Pattern,
) -> Vec<f32> {
    let scale = 1.0 / (d as f32).sqrt();
    let mut out = vec![0.0; n * dv];
    let mut keys = Vec::new();
    let mut scores = Vec::new();
    for i in 0..n {
        keys.clear();
        for range in pattern.key_ranges(i, i + 1, n) {
            keys.extend(range.filter(|&j| pattern.allowed(i, j)));
        }
        let qi = &q[i * d..(i + 1) * d];
        scores.clear();
        scores.extend(keys.iter().map(|&j| dot(qi, &k[j * d..(j + 1) * d]) * scale));
        softmax_in_place(&mut scores);
        let zi = &mut out[i * dv..(i + 1) * dv];
        for (&j, &p) in keys.iter().zip(&scores) {
            for (z, x) in zi.iter_mut().zip(&v[j * dv..(j + 1) * dv]) {
                *z += p * x;
            }
        }
    }
    out
}

/// [`sliding_window_head`] on every head, the heads in parallel.
pub fn sliding_window(q: &Heads, k: &Heads, v: &Heads, window: SlidingWindow) -> Heads {
    per_head(q, k, v, |q, k, v, dims| sliding_window_head(q, k, v, dims, window))
}

/// [`sparse_head`] on every head, the heads in parallel.
pub fn sparse(q: &Heads, k: &Heads, v: &Heads, pattern: &dyn Pattern) -> Heads {
    per_head(q, k, v, |q, k, v, dims| sparse_head(q, k, v, dims, pattern))
}

//! Attention that visits, for each query, only the keys its pattern allows: work and memory
//! O(n·w) for a window of `w`, never an `n x n` matrix. Written to be read: one query at a time.

use rayon::prelude::*;

use crate::heads::Heads;
use crate::pattern::{Pattern, SlidingWindow};

/// `softmax(scores)` in place, with the largest score subtracted first so `exp` cannot overflow.
pub fn softmax_in_place(scores: &mut [f32]) {
    let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for s in scores.iter_mut() {
        *s = (*s - max).exp();
        sum += *s;
    }
    for s in scores.iter_mut() {
        *s /= sum;
    }
}

/// The dot product of two equally long vectors.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

// ANCHOR: sliding_window
/// Sliding-window attention of one head: query `i` attends to the keys `window.keys(i, n)` only.
/// `q`, `k`, `v` hold `n` rows of `d` (values: `dv`) values each. The scores of one query, at
/// most `2w + 1` numbers, are the only scratch memory.
pub fn sliding_window_attention(
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
pub fn sparse_attention(
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

/// [`sliding_window_attention`] on every head, the heads in parallel.
pub fn sliding_window(q: &Heads, k: &Heads, v: &Heads, window: SlidingWindow) -> Heads {
    per_head(q, k, v, |q, k, v, dims| sliding_window_attention(q, k, v, dims, window))
}

/// [`sparse_attention`] on every head, the heads in parallel.
pub fn sparse(q: &Heads, k: &Heads, v: &Heads, pattern: &dyn Pattern) -> Heads {
    per_head(q, k, v, |q, k, v, dims| sparse_attention(q, k, v, dims, pattern))
}

/// Runs a one-head kernel on each head (self-attention shapes: as many keys as queries).
pub fn per_head(
    q: &Heads,
    k: &Heads,
    v: &Heads,
    kernel: impl Fn(&[f32], &[f32], &[f32], (usize, usize, usize)) -> Vec<f32> + Sync,
) -> Heads {
    assert_eq!((q.heads, q.n, q.d), (k.heads, k.n, k.d), "queries and keys must have one shape");
    assert_eq!((v.heads, v.n), (k.heads, k.n), "values must match the keys");
    let data = (0..q.heads)
        .into_par_iter()
        .flat_map_iter(|h| kernel(q.head(h), k.head(h), v.head(h), (q.n, q.d, v.d)))
        .collect();
    Heads::new(q.heads, q.n, v.d, data)
}

//! Exact attention, tile by tile, with an online softmax (Milakov & Gimelshein 2018; the idea at
//! the heart of FlashAttention, Dao et al. 2022). Keys and values are read one block at a time;
//! each query keeps a running maximum `m`, a running sum of exponentials `l` and a running
//! weighted sum of values, rescaled whenever the maximum grows. The result is softmax attention
//! to rounding, and the `n x n` matrix never exists: the memory is the output plus one tile.

use ch01_attention::DEFAULT_MASK_FILL;

use crate::pattern::Pattern;

/// Tile sizes: queries per task and keys per step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tiles {
    pub q: usize,
    pub k: usize,
}
use crate::heads::{dot, per_head, Heads};

// ANCHOR: online_softmax
/// The running state of one query's softmax over the keys seen so far.
#[derive(Clone, Debug)]
pub struct Running {
    /// the largest score so far
    pub m: f32,
    /// `Σ exp(s_j - m)` over the keys so far
    pub l: f32,
    /// `Σ exp(s_j - m) v_j` over the keys so far
    pub acc: Vec<f32>,
}

impl Running {
    pub fn new(dv: usize) -> Self {
        Running { m: f32::NEG_INFINITY, l: 0.0, acc: vec![0.0; dv] }
    }

    /// Takes in a block of keys: their scores and their value rows.
    pub fn update(&mut self, scores: &[f32], values: &[&[f32]]) {
        let m_new = scores.iter().copied().fold(self.m, f32::max);
        // what was summed under the old maximum is rescaled to the new one
        let correction = (self.m - m_new).exp();
        self.l *= correction;
        self.acc.iter_mut().for_each(|a| *a *= correction);
        for (&s, v) in scores.iter().zip(values) {
            let p = (s - m_new).exp();
            self.l += p;
            self.acc.iter_mut().zip(v.iter()).for_each(|(a, &x)| *a += p * x);
        }
        self.m = m_new;
    }

    /// The attention output: the weighted sum divided by the sum of the weights.
    pub fn finish(self) -> Vec<f32> {
        self.acc.into_iter().map(|a| a / self.l).collect()
    }
}
// ANCHOR_END: online_softmax

// ANCHOR: tiled_head
/// Tiled attention of one head: queries in tiles of `tiles.q`, keys and values in tiles of
/// `tiles.k`. A blocked score gets chapter 1's fill, -1e9, so the results agree with chapter 1
/// even on a row whose keys are all blocked.
pub fn tiled_head(
    q: &[f32],
    k: &[f32],
    v: &[f32],
    (n, d, dv): (usize, usize, usize),
    pattern: &dyn Pattern,
    tiles: Tiles,
) -> Vec<f32> {
    let scale = 1.0 / (d as f32).sqrt();
    let mut out = Vec::with_capacity(n * dv);
    for q0 in (0..n).step_by(tiles.q) {
        let queries = q0..(q0 + tiles.q).min(n);
        let mut state: Vec<Running> = queries.clone().map(|_| Running::new(dv)).collect();
        for k0 in (0..n).step_by(tiles.k) {
            let keys = k0..(k0 + tiles.k).min(n);
            let values: Vec<&[f32]> = keys.clone().map(|j| &v[j * dv..(j + 1) * dv]).collect();
            for (i, running) in queries.clone().zip(&mut state) {
                let qi = &q[i * d..(i + 1) * d];
                let scores: Vec<f32> = keys
                    .clone()
                    .map(|j| match pattern.allowed(i, j) {
                        true => dot(qi, &k[j * d..(j + 1) * d]) * scale,
                        false => DEFAULT_MASK_FILL,
                    })
                    .collect();
                running.update(&scores, &values);
            }
        }
        out.extend(state.into_iter().flat_map(Running::finish));
    }
    out
}
// ANCHOR_END: tiled_head

/// [`tiled_head`] on every head, the heads in parallel: the readable twin of
/// [`fast::tiled`](crate::fast::tiled), with the same arguments.
pub fn tiled(q: &Heads, k: &Heads, v: &Heads, pattern: &dyn Pattern, tiles: Tiles) -> Heads {
    assert!(tiles.q > 0 && tiles.k > 0, "tiled: tile sizes must be at least 1, got {tiles:?}");
    per_head(q, k, v, |q, k, v, dims| tiled_head(q, k, v, dims, pattern, tiles))
}

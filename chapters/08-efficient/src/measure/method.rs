//! What is measured: the methods by name, on the book's shapes (batch 1, 8 heads, d_k 64, f32),
//! shared by the criterion benchmark, the memory runs and the PyTorch comparison.

use dfdx::prelude::*;

use crate::fast::{self, TILES};
use crate::heads::Heads;
use crate::pattern::{Causal, Full, Pattern, SlidingWindow};
use crate::tiled::Tiles;
use crate::{dense, linear, sliding, tiled};

/// Heads of the benchmarks.
pub const HEADS: usize = 8;
/// Width of a head.
pub const D: usize = 64;
/// The window of the sliding-window benchmarks: 256 keys on each side.
pub const WINDOW: usize = 256;

/// A benchmarked method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// chapter 1's attention on dfdx tensors: the full `n x n` per head
    Dense,
    /// [`tiled::tiled`], the readable tiled kernel
    TiledReadable,
    /// [`fast::tiled`], no mask
    Fast,
    /// [`fast::tiled`] with the look-ahead mask (skips the tiles above the diagonal)
    FastCausal,
    /// [`fast::tiled`] with a sliding window of [`WINDOW`]: only the band's tiles
    SlidingFast,
    /// the band as a plain mask on every tile: the dense cost, the same answer
    SlidingMasked,
    /// [`sliding::sliding_window`], one query at a time
    SlidingReadable,
    /// [`linear::linear`], not causal
    Linear,
    /// [`linear::linear`], causal
    LinearCausal,
}

impl Method {
    pub const ALL: [Method; 9] = [
        Method::Dense,
        Method::TiledReadable,
        Method::Fast,
        Method::FastCausal,
        Method::SlidingFast,
        Method::SlidingMasked,
        Method::SlidingReadable,
        Method::Linear,
        Method::LinearCausal,
    ];

    /// The name in benchmark ids, tables and plots.
    pub fn name(self) -> &'static str {
        match self {
            Method::Dense => "dense (chapter 1)",
            Method::TiledReadable => "tiled, readable",
            Method::Fast => "tiled, fast",
            Method::FastCausal => "tiled, fast, causal",
            Method::SlidingFast => "sliding window, fast",
            Method::SlidingMasked => "sliding window as a mask",
            Method::SlidingReadable => "sliding window, readable",
            Method::Linear => "linear",
            Method::LinearCausal => "linear, causal",
        }
    }

    /// A short id for file and benchmark names.
    pub fn id(self) -> &'static str {
        match self {
            Method::Dense => "dense",
            Method::TiledReadable => "tiled_readable",
            Method::Fast => "fast",
            Method::FastCausal => "fast_causal",
            Method::SlidingFast => "sliding_fast",
            Method::SlidingMasked => "sliding_masked",
            Method::SlidingReadable => "sliding_readable",
            Method::Linear => "linear",
            Method::LinearCausal => "linear_causal",
        }
    }

    pub fn from_id(id: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.id() == id)
    }

    /// The sequence lengths the benchmark runs it at: the slow ones stop early.
    pub fn lengths(self) -> &'static [usize] {
        match self {
            Method::Dense => &[512, 1024, 2048, 4096],
            Method::TiledReadable => &[512, 1024, 2048],
            Method::Fast | Method::FastCausal => &[512, 1024, 2048, 4096, 8192, 16384],
            Method::SlidingFast | Method::SlidingMasked | Method::SlidingReadable => {
                &[1024, 2048, 4096, 8192, 16384]
            }
            Method::Linear | Method::LinearCausal => &[1024, 2048, 4096, 8192, 16384, 32768, 65536],
        }
    }

    /// Floating-point operations of the attention itself: `4 n² d` per head for dense attention
    /// (two products of `2 n² d`), the allowed share of that for sparse patterns, `4 n d²` for
    /// linear attention. Used for GFLOP/s; the masked form is counted at its useful work.
    pub fn flops(self, n: usize) -> f64 {
        let (n, d, h) = (n as f64, D as f64, HEADS as f64);
        let band = sliding_keys(n as usize) as f64;
        match self {
            Method::Dense | Method::TiledReadable | Method::Fast => 4.0 * n * n * d * h,
            Method::FastCausal => 2.0 * n * (n + 1.0) * d * h,
            Method::SlidingFast | Method::SlidingMasked | Method::SlidingReadable => {
                4.0 * band * d * h
            }
            Method::Linear | Method::LinearCausal => 4.0 * n * d * d * h,
        }
    }

    /// Runs the method once on `q`, `k`, `v` (`HEADS` heads of `n x D`).
    pub fn run(self, q: &Heads, k: &Heads, v: &Heads) -> Heads {
        let window = SlidingWindow { w: WINDOW, causal: false };
        match self {
            Method::Dense => dense::<D, D, Cpu>(&Cpu::default(), q, k, v, &Full),
            Method::TiledReadable => tiled::tiled(q, k, v, &Full, Tiles { q: 64, k: 512 }),
            Method::Fast => fast::tiled(q, k, v, &Full, TILES),
            Method::FastCausal => fast::tiled(q, k, v, &Causal, TILES),
            Method::SlidingFast => fast::tiled(q, k, v, &window, TILES),
            Method::SlidingMasked => fast::tiled(q, k, v, &EveryTile(window), TILES),
            Method::SlidingReadable => sliding::sliding_window(q, k, v, window),
            Method::Linear => linear::linear(q, k, v, false),
            Method::LinearCausal => linear::linear(q, k, v, true),
        }
    }
}

/// Allowed (query, key) pairs of the sliding window of [`WINDOW`] in a sequence of `n`.
pub fn sliding_keys(n: usize) -> usize {
    let w = SlidingWindow { w: WINDOW, causal: false };
    (0..n).map(|i| w.keys(i, n).len()).sum()
}

/// A pattern with the mask of `P` but none of its savings: every tile is visited and masked.
pub struct EveryTile<P>(pub P);

impl<P: Pattern> Pattern for EveryTile<P> {
    fn allowed(&self, i: usize, j: usize) -> bool {
        self.0.allowed(i, j)
    }
    fn all_allowed(&self, _q0: usize, _q1: usize, _k0: usize, _k1: usize) -> bool {
        false
    }
    fn block(&self, i: usize, k0: usize, row: &mut [f32], fill: f32) {
        self.0.block(i, k0, row, fill)
    }
}

/// The benchmark's inputs for length `n`: seeded queries, keys and values.
pub fn inputs(n: usize) -> [Heads; 3] {
    inputs_batched(1, n)
}

/// [`inputs`] for a batch of `batch` sequences: `batch x HEADS` heads.
pub fn inputs_batched(batch: usize, n: usize) -> [Heads; 3] {
    [1, 2, 3].map(|seed| Heads::random(seed, batch * HEADS, n, D))
}

//! The fast tiled kernel: the same online softmax as [`crate::tiled`], organised for speed.
//!
//! * A tile of `q` queries against a tile of `k` keys is one matrix multiply, `S = Q Kᵀ / √d`,
//!   done by the `gemm` crate, and the weighted sum is another, `acc += P V`: the two products
//!   that hold nearly all of attention's arithmetic run at matrix-multiply speed.
//! * The row maximum and `exp(s - m)` with its row sum run over whole rows of the tile, vectorised
//!   ([`simd`]).
//! * Tiles whose keys the pattern rules out for every query of the tile are never visited; tiles
//!   it allows entirely skip the mask.
//! * Every (head, query tile) is an independent task, spread over the cores by rayon; each thread
//!   owns one score tile of `q x k` floats, the only scratch memory.

pub mod gemm;
pub mod simd;

use ch01_attention::DEFAULT_MASK_FILL;
use rayon::prelude::*;

use crate::heads::Heads;
use crate::pattern::Pattern;
use crate::tiled::Tiles;
use gemm::{matmul, View};

/// 256 queries by 512 keys: the fastest of the sizes tried on the development machine (64, 128,
/// 256 by 512 and 128 by 1024), and the blocks PyTorch's CPU flash kernel uses for long sequences.
pub const TILES: Tiles = Tiles { q: 256, k: 512 };

/// Exact attention of every head of `q` over `k`/`v` under `pattern`, tile by tile. Every query
/// must be allowed at least one key (all of this chapter's patterns keep the diagonal).
///
/// # Panics
/// If the heads do not fit together (other head counts, `q` and `k` of other widths, `v` not as
/// long as `k`) or a tile size is 0.
// ANCHOR: fast_attention
pub fn tiled(q: &Heads, k: &Heads, v: &Heads, pattern: &dyn Pattern, tiles: Tiles) -> Heads {
    assert!(
        tiles.q > 0 && tiles.k > 0,
        "fast::tiled: tile sizes must be at least 1, got {tiles:?}"
    );
    assert_eq!(
        (q.heads, q.d),
        (k.heads, k.d),
        "fast::tiled: queries and keys differ in heads or width"
    );
    assert_eq!((v.heads, v.n), (k.heads, k.n), "fast::tiled: values must match the keys");
    let mut out = Heads::zeros(q.heads, q.n, v.d);
    if q.n == 0 || v.d == 0 {
        return out;
    }
    let dv = v.d;
    out.data
        .par_chunks_mut(q.n * dv) // one head
        .enumerate()
        .flat_map(|(h, head)| {
            head.par_chunks_mut(tiles.q * dv) // one tile of queries
                .enumerate()
                .map(move |(t, tile)| (h, t * tiles.q, tile))
        })
        .for_each_init(
            || Scratch::new(tiles),
            |scratch, (h, q0, tile)| scratch.tile((q, k, v), pattern, tiles, (h, q0), tile),
        );
    out
}
// ANCHOR_END: fast_attention

/// One thread's buffers: the score tile, and the running max and sum of each query of a tile.
struct Scratch {
    scores: Vec<f32>,
    m: Vec<f32>,
    l: Vec<f32>,
}

impl Scratch {
    fn new(tiles: Tiles) -> Self {
        Scratch {
            scores: vec![0.0; tiles.q * tiles.k],
            m: vec![0.0; tiles.q],
            l: vec![0.0; tiles.q],
        }
    }

    // ANCHOR: fast_tile
    /// Queries `q0..q0 + rows` of head `h` into `out` (`rows x dv`).
    fn tile(
        &mut self,
        (q, k, v): (&Heads, &Heads, &Heads),
        pattern: &dyn Pattern,
        tiles: Tiles,
        (h, q0): (usize, usize),
        out: &mut [f32],
    ) {
        let (d, dv) = (q.d, v.d);
        let rows = out.len() / dv;
        let q1 = q0 + rows;
        let scale = 1.0 / (d as f32).sqrt();
        let Scratch { scores, m, l } = self;
        let (m, l) = (&mut m[..rows], &mut l[..rows]);
        m.fill(f32::NEG_INFINITY);
        l.fill(0.0);
        out.fill(0.0);
        let q_tile = View::rows(&q.head(h)[q0 * d..q1 * d], rows, d, d);
        for range in pattern.key_ranges(q0, q1, k.n) {
            for k0 in range.clone().step_by(tiles.k) {
                let k1 = (k0 + tiles.k).min(range.end);
                let cols = k1 - k0;
                let s = &mut scores[..rows * cols];
                // S = Q Kᵀ / √d for this tile
                let k_t = View::transposed(&k.head(h)[k0 * d..k1 * d], d, cols, d);
                matmul(s, cols, q_tile, k_t, scale, false);
                if !pattern.all_allowed(q0, q1, k0, k1) {
                    for (r, row) in s.chunks_exact_mut(cols).enumerate() {
                        pattern.block(q0 + r, k0, row, DEFAULT_MASK_FILL);
                    }
                }
                // online softmax: new maxima, rescale what was summed, P = exp(S - m)
                for (r, row) in s.chunks_exact_mut(cols).enumerate() {
                    let m_new = m[r].max(simd::row_max(row));
                    let correction = simd::exp(m[r] - m_new);
                    if correction != 1.0 {
                        l[r] *= correction;
                        out[r * dv..(r + 1) * dv].iter_mut().for_each(|a| *a *= correction);
                    }
                    l[r] += simd::exp_and_sum(row, m_new);
                    m[r] = m_new;
                }
                // acc += P V for this tile
                let v_tile = View::rows(&v.head(h)[k0 * dv..k1 * dv], cols, dv, dv);
                matmul(out, dv, View::rows(s, rows, cols, cols), v_tile, 1.0, true);
            }
        }
        for (row, &l) in out.chunks_exact_mut(dv).zip(l.iter()) {
            row.iter_mut().for_each(|a| *a /= l);
        }
    }
    // ANCHOR_END: fast_tile
}

//! Where the fast kernel's time goes, measured on one thread.

use crate::fast::TILES;
use crate::measure::method::{inputs, D};

/// Where the fast kernel's time goes, on one thread: the two matrix products of a tile, and the
/// row operations (max, `exp`, sum) per score.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Breakdown {
    /// `S = Q Kᵀ` on one `TILES.q x TILES.k` tile, d 64
    pub qk_gflops: f64,
    /// `acc += P V` on one tile
    pub pv_gflops: f64,
    /// row max, then `exp(s - m)` and the row sum, per score
    pub row_ns_per_score: f64,
}

/// Measures [`Breakdown`] on the calling thread (best of five rounds of 200 tiles each).
pub fn breakdown() -> Breakdown {
    use crate::fast::gemm::{matmul, View};
    use crate::fast::simd;
    use std::time::Instant;

    let (tq, tk) = (TILES.q, TILES.k);
    let [q, k, v] = inputs(4 * tk);
    let mut s = vec![0.0f32; tq * tk];
    let mut o = vec![0.0f32; tq * D];
    let best = |f: &mut dyn FnMut(usize)| {
        (0..5)
            .map(|_| {
                let start = Instant::now();
                (0..200).for_each(&mut *f);
                start.elapsed().as_secs_f64() / 200.0
            })
            .fold(f64::INFINITY, f64::min)
    };
    let flops = 2.0 * (tq * tk * D) as f64;
    let qk = best(&mut |r| {
        let k0 = (r % 4) * tk;
        let k_t = View::transposed(&k.data[k0 * D..(k0 + tk) * D], D, tk, D);
        matmul(&mut s, tk, View::rows(&q.data[..tq * D], tq, D, D), k_t, 0.125, false);
    });
    let rows = best(&mut |_| {
        for row in s.chunks_exact_mut(tk) {
            let m = simd::row_max(row);
            std::hint::black_box(simd::exp_and_sum(row, m));
        }
    });
    let pv = best(&mut |r| {
        let k0 = (r % 4) * tk;
        let v_tile = View::rows(&v.data[k0 * D..(k0 + tk) * D], tk, D, D);
        matmul(&mut o, D, View::rows(&s, tq, tk, tk), v_tile, 1.0, true);
    });
    Breakdown {
        qk_gflops: flops / qk / 1e9,
        pv_gflops: flops / pv / 1e9,
        row_ns_per_score: rows * 1e9 / (tq * tk) as f64,
    }
}

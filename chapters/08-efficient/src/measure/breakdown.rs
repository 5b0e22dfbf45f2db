//! Where the fast kernel's time goes, measured on one thread.

use crate::fast::stages::{Stage, StageRun};
use crate::fast::{Isa, Scratch, TILES};
use crate::measure::method::{inputs, D};

/// Where the fast kernel's time goes, on one thread: the two matrix products of a tile, and the
/// row operations (max, `exp`, sum) per score.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Breakdown {
    /// the instruction set the kernel ran on
    pub isa: Isa,
    /// packing the keys and `S = Q Kᵀ` on one `TILES.q x TILES.k` tile, d 64
    pub qk_gflops: f64,
    /// `acc += P V` on one tile
    pub pv_gflops: f64,
    /// row max, then `exp(s - m)` and the row sum, per score, on a strip in the L1 cache
    pub row_ns_per_score: f64,
}

/// Measures [`Breakdown`] on the calling thread, on the path [`Isa::chosen`] (best of five rounds
/// of 200 runs of each stage over one tile).
pub fn breakdown() -> Breakdown {
    breakdown_on(Isa::chosen())
}

/// [`breakdown`] on the path `isa`.
///
/// # Panics
/// If this CPU cannot run the path.
pub fn breakdown_on(isa: Isa) -> Breakdown {
    use std::time::Instant;

    let (tq, tk) = (TILES.q, TILES.k);
    let [q, k, v] = inputs(4 * tk);
    let mut scratch = Scratch::new(isa, TILES, (D, D));
    let mut o = vec![0.0f32; tq * D];
    let mut best = |stage: Stage| {
        (0..5)
            .map(|_| {
                let start = Instant::now();
                for r in 0..200 {
                    let k0 = (r % 4) * tk;
                    let (q, k, v) = (
                        &q.data[..tq * D],
                        &k.data[k0 * D..(k0 + tk) * D],
                        &v.data[k0 * D..(k0 + tk) * D],
                    );
                    isa.run(StageRun { stage, scratch: &mut scratch, q, k, v, d: D, out: &mut o });
                }
                start.elapsed().as_secs_f64() / 200.0
            })
            .fold(f64::INFINITY, f64::min)
    };
    let flops = 2.0 * (tq * tk * D) as f64;
    let qk = best(Stage::Scores);
    let rows = best(Stage::RowOps);
    let pv = best(Stage::WeightedSum);
    Breakdown {
        isa,
        qk_gflops: flops / qk / 1e9,
        pv_gflops: flops / pv / 1e9,
        row_ns_per_score: rows * 1e9 / (tq * tk) as f64,
    }
}

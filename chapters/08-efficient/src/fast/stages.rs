//! The fast kernel's stages one at a time, for measuring where its time goes
//! ([`crate::measure::breakdown`]): each runs over one tile, strip by strip, as [`super::kernel`]
//! runs it inside the fused loop.
#![allow(unsafe_code)]

use super::isa::OnPath;
use super::kernel::{exp_and_sum, pack_keys, pack_values, row_max, scores, weighted_sum, Scratch};
use super::lanes::Lanes;

/// One stage of the kernel's [`Tile`](super::kernel::Tile), for measuring where its time goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// packing the keys, then `S = Q Kᵀ / √d` strip by strip
    Scores,
    /// row max, then `exp(s - m)` and the row sum, on the strip
    RowOps,
    /// packing the values, then `acc += P V` strip by strip
    WeightedSum,
}

/// One [`Stage`] alone over one tile, strip by strip as the kernel runs it: queries `q` (`rows x
/// d`) against keys `k` (`cols x d`) and values `v` (`cols x dv`) into `out` (`rows x dv`), with
/// `scratch` from [`Scratch::new`] for tiles of at least `rows x cols`.
pub struct StageRun<'a> {
    pub stage: Stage,
    pub scratch: &'a mut Scratch,
    pub q: &'a [f32],
    pub k: &'a [f32],
    pub v: &'a [f32],
    pub d: usize,
    pub out: &'a mut [f32],
}

impl OnPath for StageRun<'_> {
    type Output = ();

    #[inline(always)]
    unsafe fn run<L: Lanes, const MR: usize>(self) {
        let StageRun { stage, scratch, q, k, v, d, out } = self;
        let (rows, cols, nr) = (q.len() / d, k.len() / d, 2 * L::W);
        let (stride, dv) = (cols.div_ceil(nr) * nr, v.len() / cols);
        let strip = &mut scratch.strip[..MR * stride];
        match stage {
            Stage::Scores => pack_keys(&mut scratch.keys[..stride * d], k, d, nr),
            Stage::WeightedSum => _ = pack_values(&mut scratch.values, v, dv, nr),
            Stage::RowOps => {}
        }
        let packed = &scratch.values[..dv / nr * nr * cols];
        for r0 in (0..rows).step_by(MR) {
            let mr = MR.min(rows - r0);
            match stage {
                Stage::Scores => {
                    let qs: [&[f32]; MR] =
                        std::array::from_fn(|i| &q[(r0 + i.min(mr - 1)) * d..][..d]);
                    scores::<L, MR>(&qs, &scratch.keys[..stride * d], 0.125, strip, stride);
                }
                Stage::RowOps => {
                    for row in strip.chunks_exact_mut(stride).take(mr) {
                        let m = row_max::<L>(&row[..cols]);
                        exp_and_sum::<L>(&mut row[..cols], m);
                    }
                }
                Stage::WeightedSum => {
                    let o = &mut out[r0 * dv..(r0 + mr) * dv];
                    weighted_sum::<L, MR>(o, (strip, stride, cols), (v, packed), &[1.0; MR]);
                }
            }
        }
    }
}

/// Independent chains of fused multiply-adds, for measuring the CPU's own limit
/// ([`crate::measure::peak`]): [`FmaChains::CHAINS`] accumulators of one vector each, every one
/// updated `rounds` times by `acc = acc · a + b`. Enough independent chains to hide an FMA's
/// latency on two FMA units, few enough to stay in registers (AVX2 has 16). Returns the sum of the
/// lanes, so that the work cannot be optimised away.
pub struct FmaChains {
    pub rounds: usize,
}

impl FmaChains {
    /// Accumulators updated in each round.
    pub const CHAINS: usize = 12;
}

impl OnPath for FmaChains {
    type Output = f32;

    #[inline(always)]
    unsafe fn run<L: Lanes, const MR: usize>(self) -> f32 {
        let (a, b) = (L::splat(0.999_999), L::splat(1e-7));
        let mut acc = [L::splat(1.0); FmaChains::CHAINS];
        for _ in 0..self.rounds {
            for x in acc.iter_mut() {
                *x = L::fma(*x, a, b);
            }
        }
        acc.iter().map(|&x| L::reduce_sum(x)).sum()
    }
}

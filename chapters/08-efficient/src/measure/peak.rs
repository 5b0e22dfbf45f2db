//! The machine's own limit: how many floating-point operations per second fused multiply-adds
//! reach on each instruction-set path, on one thread and on all of them ([`peak`]), and the fast
//! kernel as a share of it ([`Limits`]): an anchor a reader can check on their own CPU, where
//! PyTorch is only a moving reference.

use crate::fast::stages::FmaChains;
use crate::fast::{self, Isa, TILES};
use crate::measure::breakdown::{breakdown_on, Breakdown};
use crate::measure::method::{inputs, Method};
use crate::Full;
use rayon::prelude::*;

/// One path's peak, in GFLOP/s (a fused multiply-add counts as two operations).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Peak {
    pub isa: Isa,
    /// one thread
    pub one_thread: f64,
    /// every thread of rayon's pool, each running the same chains
    pub all_threads: f64,
    /// the threads of `all_threads`
    pub threads: usize,
}

/// Operations in one run of [`FmaChains`] of `rounds` on `isa`: chains × lanes × 2 per round.
pub fn operations(isa: Isa, rounds: usize) -> f64 {
    (FmaChains::CHAINS * isa.lanes() * 2 * rounds) as f64
}

/// Measures `isa`'s peak: the best of five runs of 20 million rounds (about 0.1 to 1 s each),
/// after one run to warm up, on one thread and then on every thread at once.
///
/// # Panics
/// If this CPU cannot run the path.
pub fn peak(isa: Isa) -> Peak {
    const ROUNDS: usize = 20_000_000;
    let run = || std::hint::black_box(isa.run(FmaChains { rounds: std::hint::black_box(ROUNDS) }));
    let best = |f: &dyn Fn() -> usize| {
        f();
        (0..5)
            .map(|_| {
                let start = std::time::Instant::now();
                let copies = f();
                copies as f64 * operations(isa, ROUNDS) / start.elapsed().as_secs_f64() / 1e9
            })
            .fold(0.0, f64::max)
    };
    let threads = rayon::current_num_threads();
    let one_thread = best(&|| {
        run();
        1
    });
    let all_threads = best(&|| {
        (0..threads).into_par_iter().for_each(|_| {
            run();
        });
        threads
    });
    Peak { isa, one_thread, all_threads, threads }
}

/// One path's limit beside what the fast kernel reaches on it: the stages on one thread
/// ([`Breakdown`]) and the whole kernel at 2,048 tokens on every thread.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PathLimits {
    pub peak: Peak,
    pub stages: Breakdown,
    /// the fast kernel, 8 heads of 2,048 tokens, best of five calls on every thread
    pub kernel_gflops: f64,
}

impl PathLimits {
    /// Measures `isa`'s peak, its stages and the whole kernel.
    ///
    /// # Panics
    /// If this CPU cannot run the path.
    pub fn measure(isa: Isa) -> PathLimits {
        let [q, k, v] = inputs(2048);
        let call = || fast::tiled_on(isa, &q, &k, &v, &Full, TILES);
        call();
        let best = (0..5)
            .map(|_| {
                let start = std::time::Instant::now();
                std::hint::black_box(call());
                start.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min);
        PathLimits {
            peak: peak(isa),
            stages: breakdown_on(isa),
            kernel_gflops: Method::Fast.flops(2048) / best / 1e9,
        }
    }

    /// The shares of the peak: `QKᵀ` and `PV` of the one-thread peak, the whole kernel of the
    /// all-thread peak.
    pub fn shares(&self) -> (f64, f64, f64) {
        (
            self.stages.qk_gflops / self.peak.one_thread,
            self.stages.pv_gflops / self.peak.one_thread,
            self.kernel_gflops / self.peak.all_threads,
        )
    }
}

/// One machine's limits on every path it has: what `--example limits` measures and
/// `measurements/limits/NAME.json` keeps, one file per machine.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Limits {
    /// CPU model, cores and vector extensions ([`support::machine::describe`])
    pub machine: String,
    pub paths: Vec<PathLimits>,
}

impl Limits {
    /// The page's table: per path, the peak and the kernel's share of it.
    pub fn table(&self) -> String {
        let mut out = String::from(
            "| path | FMA peak, 1 thread | FMA peak, all threads | QKᵀ, 1 thread | PV, 1 thread | row operations | whole kernel, n = 2048, all threads |\n|---|---:|---:|---:|---:|---:|---:|",
        );
        for p in &self.paths {
            let (qk, pv, kernel) = p.shares();
            out += &format!(
                "\n| {} | {:.0} GFLOP/s | {:.0} GFLOP/s | {:.0} GFLOP/s ({:.0} %) | {:.0} GFLOP/s ({:.0} %) | {:.3} ns per score | {:.0} GFLOP/s ({:.0} %) |",
                p.peak.isa.name(),
                p.peak.one_thread,
                p.peak.all_threads,
                p.stages.qk_gflops,
                100.0 * qk,
                p.stages.pv_gflops,
                100.0 * pv,
                p.stages.row_ns_per_score,
                p.kernel_gflops,
                100.0 * kernel
            );
        }
        out + &format!(
            "\n\n{}; {} threads; GFLOP/s count a fused multiply-add as two operations.\n",
            self.machine,
            self.paths.first().map_or(0, |p| p.peak.threads)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chains_compute_what_they_count() {
        // 12 chains of W lanes, each x -> x · 0.999999 + 1e-7 applied `rounds` times from 1.0
        let rounds = 1000;
        let mut x = 1.0f32;
        for _ in 0..rounds {
            x = x * 0.999_999 + 1e-7;
        }
        for isa in Isa::available() {
            let sum = isa.run(FmaChains { rounds });
            let want = x * (FmaChains::CHAINS * isa.lanes()) as f32;
            assert!((sum - want).abs() < 1e-3 * want, "{}: {sum} against {want}", isa.name());
            assert_eq!(operations(isa, rounds), (12 * isa.lanes() * 2 * rounds) as f64);
        }
    }
}

//! What generation costs with and without the KV cache, measured: time per token and in total for
//! a range of lengths, and the slopes of the totals on a log-log scale (1 for cost growing as
//! `n`, 2 for `n^2`).

use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::llama::generate::{generate, Recompute, Sampling};
use crate::llama::lm::LanguageModel;

/// The lengths the benchmark generates.
pub const LENGTHS: [usize; 6] = [64, 128, 256, 512, 1024, 2048];

/// One length, both ways.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CostRow {
    /// tokens generated after a one-token prompt
    pub tokens: usize,
    /// seconds for all of them, with the cache (the best of `cached_runs` runs)
    pub cached_s: f64,
    pub cached_runs: usize,
    /// seconds for all of them, recomputing everything each step (the best of
    /// `recomputed_runs` runs)
    pub recomputed_s: f64,
    pub recomputed_runs: usize,
}

impl CostRow {
    pub fn cached_ms_per_token(&self) -> f64 {
        1e3 * self.cached_s / self.tokens as f64
    }

    pub fn recomputed_ms_per_token(&self) -> f64 {
        1e3 * self.recomputed_s / self.tokens as f64
    }
}

/// The committed measurement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CostReport {
    /// the CPU, its cores and vector instruction sets (`support::machine::describe`)
    pub machine: String,
    pub rows: Vec<CostRow>,
}

impl CostReport {
    /// The least-squares slope of `ln(total seconds)` against `ln(tokens)`, cached and recomputed.
    pub fn slopes(&self) -> (f64, f64) {
        let points = |f: fn(&CostRow) -> f64| -> Vec<(f64, f64)> {
            self.rows.iter().map(|r| (r.tokens as f64, f(r))).collect()
        };
        let slope = support::fit::loglog_slope;
        (slope(&points(|r| r.cached_s)), slope(&points(|r| r.recomputed_s)))
    }
}

/// Runs at most this many times per length and way...
pub const MAX_RUNS: usize = 5;
/// ...and stops earlier once the runs have taken this many seconds together.
pub const BUDGET_S: f64 = 2.0;

/// The best time of [`time_generation`] over up to [`MAX_RUNS`] runs within [`BUDGET_S`]
/// seconds (always at least one run), and how many runs it took.
pub fn best_time(model: &impl LanguageModel, tokens: usize, recompute: Recompute) -> (f64, usize) {
    let (mut best, mut spent, mut runs) = (f64::MAX, 0.0, 0);
    while runs < MAX_RUNS && (runs == 0 || spent < BUDGET_S) {
        let t = time_generation(model, tokens, recompute);
        (best, spent, runs) = (best.min(t), spent + t, runs + 1);
    }
    (best, runs)
}

/// Seconds to generate `tokens` tokens greedily after a one-token prompt.
pub fn time_generation(model: &impl LanguageModel, tokens: usize, recompute: Recompute) -> f64 {
    let start = Instant::now();
    let out = generate(model, &[1], tokens, Sampling::Greedy, recompute);
    assert_eq!(out.len(), tokens);
    start.elapsed().as_secs_f64()
}

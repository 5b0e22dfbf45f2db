//! The committed training runs of the three variants (`measurements/variants.json`, written by
//! `variants_train -- --json`), the table the page shows and its two figures' numbers.

use ch10_language_models::TrainConfig;
use serde::{Deserialize, Serialize};

use super::train::{Reading, Run};
use super::Variant;

/// Where the committed runs are kept.
pub const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/measurements/variants.json");

/// The three runs, with the configuration and the machine they ran on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Runs {
    pub machine: String,
    pub config: TrainConfig,
    /// steps between readings
    pub every: usize,
    /// every seed each variant ran with (`config.seed` first)
    pub seeds: Vec<u64>,
    pub runs: Vec<Run>,
}

/// A number over all seeds: its value with `seeds[0]`, and the smallest and largest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OverSeeds {
    pub first: f64,
    pub min: f64,
    pub max: f64,
}

/// The committed runs.
///
/// # Panics
/// If the file is missing or not a set of runs.
pub fn committed() -> Runs {
    let text = std::fs::read_to_string(COMMITTED).unwrap_or_else(|e| panic!("{COMMITTED}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{COMMITTED}: {e}"))
}

/// A variant's name on the page.
pub fn name(v: Variant) -> &'static str {
    match v {
        Variant::Plain => "chapter 10's attention",
        Variant::QkNorm => "with QK-norm",
        Variant::Gate => "with the output gate",
    }
}

impl Runs {
    /// The run of `variant` with `seeds[0]`.
    pub fn run(&self, variant: Variant) -> &Run {
        self.run_with(variant, self.seeds[0])
    }

    /// The run of `variant` with `seed`.
    pub fn run_with(&self, variant: Variant, seed: u64) -> &Run {
        let found = self.runs.iter().find(|r| r.variant == variant && r.seed == seed);
        found.expect("every variant ran with every seed")
    }

    /// `pick` of `variant`'s runs, seed by seed.
    pub fn over_seeds(&self, variant: Variant, pick: impl Fn(&Run) -> f64) -> OverSeeds {
        let all: Vec<f64> = self.seeds.iter().map(|&s| pick(self.run_with(variant, s))).collect();
        let (min, max) = all.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        OverSeeds { first: all[0], min, max }
    }

    /// The table: per variant, the largest score at the end and along the way, the mean weight on
    /// position 0 per layer at the end, and the held-out loss; the number with `seeds[0]`, then the
    /// range over all seeds.
    pub fn table(&self) -> String {
        let mut out = format!(
            "{} steps of chapter 10's run ({} windows of {}), readings on {} held-out windows;\n",
            self.config.steps,
            self.config.batch_size,
            self.config.context,
            super::train::PROBE_WINDOWS
        );
        out += &format!(
            "seed {}, and in brackets the range over seeds {:?}\n",
            self.seeds[0], self.seeds
        );
        let variants = [Variant::Plain, Variant::QkNorm, Variant::Gate];
        let rows: [(&str, &dyn Fn(&Run) -> f64, usize); 5] = [
            (
                "largest score at the end",
                &|r| r.readings.last().expect("readings").max_score as f64,
                2,
            ),
            ("largest score on the way", &|r| largest_score(r) as f64, 2),
            ("weight on position 0, layer 1", &|r| end_weight(r, 0), 3),
            ("weight on position 0, layer 2", &|r| end_weight(r, 1), 3),
            ("held-out loss, nats/char", &|r| r.held_out, 3),
        ];
        for v in variants {
            out += &format!("{}:\n", name(v));
            for (label, pick, places) in &rows {
                let o = self.over_seeds(v, pick);
                out += &format!(
                    "  {label:<30} {:>7.p$}  ({:.p$} to {:.p$})\n",
                    o.first,
                    o.min,
                    o.max,
                    p = *places
                );
            }
        }
        out
    }
}

/// The largest score of any reading of `run`.
pub fn largest_score(run: &Run) -> f32 {
    run.readings.iter().map(|x| x.max_score).fold(f32::MIN, f32::max)
}

/// Layer `layer`'s mean weight on position 0 at the end of `run`.
pub fn end_weight(run: &Run, layer: usize) -> f64 {
    run.readings.last().expect("readings").first_weight[layer] as f64
}

impl Run {
    /// `(step, reading)` pairs for a figure.
    pub fn series(&self, pick: impl Fn(&Reading) -> f32) -> Vec<(f32, f32)> {
        self.readings.iter().map(|r| (r.step as f32, pick(r))).collect()
    }
}

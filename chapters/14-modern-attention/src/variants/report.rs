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
    pub runs: Vec<Run>,
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
    /// The run of `variant`.
    pub fn run(&self, variant: Variant) -> &Run {
        self.runs.iter().find(|r| r.variant == variant).expect("every variant ran")
    }

    /// The table: per run, the largest score at the start and the end and the largest along the
    /// way, the mean weight on position 0 per layer at the end, and the held-out loss.
    pub fn table(&self) -> String {
        let mut out = format!(
            "{} steps of chapter 10's run ({} windows of {}), readings on {} held-out windows\n",
            self.config.steps,
            self.config.batch_size,
            self.config.context,
            super::train::PROBE_WINDOWS
        );
        out += &format!(
            "{:<24} {:>13} {:>10} {:>21} {:>9}\n",
            "", "largest score", "", "weight on position 0", "held-out"
        );
        out += &format!(
            "{:<24} {:>6} {:>6} {:>10} {:>10} {:>10} {:>9}\n",
            "run", "start", "end", "(largest)", "layer 1", "layer 2", "nats/char"
        );
        for r in &self.runs {
            let (first, last) = (&r.readings[0], r.readings.last().expect("readings"));
            let largest = r.readings.iter().map(|x| x.max_score).fold(f32::MIN, f32::max);
            out += &format!(
                "{:<24} {:>6.2} {:>6.2} {:>10.2} {:>10.3} {:>10.3} {:>9.3}\n",
                name(r.variant),
                first.max_score,
                last.max_score,
                largest,
                last.first_weight[0],
                last.first_weight[1],
                r.held_out
            );
        }
        out
    }
}

impl Run {
    /// `(step, reading)` pairs for a figure.
    pub fn series(&self, pick: impl Fn(&Reading) -> f32) -> Vec<(f32, f32)> {
        self.readings.iter().map(|r| (r.step as f32, pick(r))).collect()
    }
}

//! The model the `train` example trained and saved (`weights/digits_vit.safetensors`), the report
//! of that run (`weights/digits_vit.json`: the learning curve, the accuracies, the time), and the
//! runs of the `seeds` example (`weights/runs.json`: other seeds, smaller training sets). The
//! notebook, the figures and the book load these instead of training for minutes.

use dfdx::nn::LoadFromSafetensors;
use dfdx::prelude::*;
use serde::{Deserialize, Serialize};

use crate::train::Report;
use crate::DigitsVit;

/// Where the `train` example saves the weights.
pub const WEIGHTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/digits_vit.safetensors");

/// Where the `train` example saves its report.
pub const REPORT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/digits_vit.json");

/// Where the `seeds` example saves its runs.
pub const RUNS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/runs.json");

/// The trained [`DigitsVit`], on `dev`.
pub fn load_model<Dev: Device<f32>>(dev: &Dev) -> DigitsVit<Dev> {
    let mut model = DigitsVit::new(dev);
    model.load_safetensors(WEIGHTS).unwrap_or_else(|e| {
        panic!("{WEIGHTS}: {e:?}; run `cargo run --release -p ch07-vit --example train`")
    });
    model
}

/// The report of the run that produced the weights.
pub fn load_report() -> Report {
    let text = std::fs::read_to_string(REPORT).unwrap_or_else(|e| {
        panic!("{REPORT}: {e}; run `cargo run --release -p ch07-vit --example train`")
    });
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{REPORT} is not a report: {e}"))
}

/// One run of the `seeds` example: [`TrainConfig::digits`](crate::TrainConfig::digits) with
/// another seed and training share, and 1-nearest-neighbour on the same split.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub seed: u64,
    /// the share of each class that went to training; the rest is the test set
    pub train_fraction: f64,
    pub train_images: usize,
    pub test_images: usize,
    /// test images the trained ViT classified correctly
    pub vit_correct: usize,
    /// test images 1-nearest-neighbour classified correctly
    pub knn_correct: usize,
    /// wall time of the ViT's training, in seconds
    pub seconds: f64,
}

impl Run {
    pub fn vit_accuracy(&self) -> f64 {
        self.vit_correct as f64 / self.test_images as f64
    }

    pub fn knn_accuracy(&self) -> f64 {
        self.knn_correct as f64 / self.test_images as f64
    }
}

/// The runs of the `seeds` example, in the order it ran them.
pub fn load_runs() -> Vec<Run> {
    let text = std::fs::read_to_string(RUNS).unwrap_or_else(|e| {
        panic!("{RUNS}: {e}; run `cargo run --release -p ch07-vit --example seeds`")
    });
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{RUNS} is not a list of runs: {e}"))
}

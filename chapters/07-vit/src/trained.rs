//! The model the `train` example trained and saved (`weights/digits_vit.safetensors`), the report
//! of that run (`weights/digits_vit.json`: the learning curve, the accuracies, the time), and the
//! runs of the `seeds` example (`weights/runs.json`: other seeds, smaller training sets). The
//! notebook, the figures and the book load these instead of training for minutes.

use std::path::Path;

use dfdx::nn::LoadFromSafetensors;
use dfdx::prelude::*;
use support::saved::{load_weights, read_json};

use crate::error::LoadError;
use crate::report::{Report, Run};
use crate::DigitsVit;

/// Where the `train` example saves the weights.
pub const WEIGHTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/digits_vit.safetensors");

/// Where the `train` example saves its report.
pub const REPORT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/digits_vit.json");

/// Where the `seeds` example saves its runs.
pub const RUNS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/runs.json");

/// The command that writes [`WEIGHTS`] and [`REPORT`].
pub const TRAIN: &str = "cargo run --release -p ch07-vit --example train";

/// The command that writes [`RUNS`].
pub const SEEDS: &str = "cargo run --release -p ch07-vit --example seeds";

/// A fresh [`DigitsVit`] with the weights of the safetensors file at `path`.
pub fn try_load_from<Dev: Device<f32>>(
    dev: &Dev,
    path: impl AsRef<Path>,
) -> Result<DigitsVit<Dev>, LoadError> {
    let mut model = DigitsVit::new(dev);
    load_weights(path, TRAIN, |p| model.load_safetensors(p))?;
    Ok(model)
}

/// The trained [`DigitsVit`], on `dev`.
pub fn try_load_model<Dev: Device<f32>>(dev: &Dev) -> Result<DigitsVit<Dev>, LoadError> {
    try_load_from(dev, WEIGHTS)
}

/// The trained [`DigitsVit`], on `dev`.
///
/// # Panics
/// With [`try_load_model`]'s error, if the weights do not load.
pub fn load_model<Dev: Device<f32>>(dev: &Dev) -> DigitsVit<Dev> {
    try_load_model(dev).unwrap_or_else(|e| panic!("{e}"))
}

/// The report of the run that produced the weights.
///
/// # Panics
/// If the file is missing or not a report: the message names the file and the command that
/// writes it.
pub fn load_report() -> Report {
    read_json(REPORT, "a training report", TRAIN).unwrap_or_else(|e| panic!("{e}"))
}

/// The runs of the `seeds` example, in the order it ran them.
///
/// # Panics
/// As [`load_report`].
pub fn load_runs() -> Vec<Run> {
    read_json(RUNS, "a list of runs", SEEDS).unwrap_or_else(|e| panic!("{e}"))
}

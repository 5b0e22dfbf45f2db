//! The committed model: `weights/reverser.safetensors` (what the `train_reverser` example saved)
//! and its report. The `reverse` example, the notebook, the figures and the explorer load these.

use std::path::Path;

use dfdx::prelude::*;
use support::saved::{load_weights, read_json};

use crate::error::LoadError;
use crate::model::new_model;
use crate::presets::Reverser;
use crate::report::Report;

/// Where the `train_reverser` example saves the weights.
pub const WEIGHTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/reverser.safetensors");
/// Where the `train_reverser` example saves its report.
pub const REPORT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/reverser.json");
/// The command that writes both.
pub const TRAIN: &str = "cargo run --release -p ch09-capstone --example train_reverser";

/// A fresh model with the weights of the safetensors file at `path`.
pub fn try_load_from<Dev: Device<f32>>(
    dev: &Dev,
    path: impl AsRef<Path>,
) -> Result<Reverser<Dev>, LoadError> {
    let mut model = new_model(dev, 0.0);
    load_weights(path, TRAIN, |p| model.load_safetensors(p))?;
    Ok(model)
}

/// The committed model.
pub fn try_load_model<Dev: Device<f32>>(dev: &Dev) -> Result<Reverser<Dev>, LoadError> {
    try_load_from(dev, WEIGHTS)
}

/// The committed model.
///
/// # Panics
/// With [`try_load_model`]'s error, if the weights do not load.
pub fn load_model<Dev: Device<f32>>(dev: &Dev) -> Reverser<Dev> {
    try_load_model(dev).unwrap_or_else(|e| panic!("{e}"))
}

/// The committed report.
///
/// # Panics
/// If the file is missing or not a report: the message names the file and the command that
/// writes it.
pub fn load_report() -> Report {
    read_json(REPORT, "a training report", TRAIN).unwrap_or_else(|e| panic!("{e}"))
}

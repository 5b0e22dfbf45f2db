//! The committed model: `weights/char_model.safetensors` (what the `train_char_model` example
//! saved, under Hugging Face's names) and its report. The `generate` example, the notebook and
//! the figures load these.

use dfdx::prelude::*;
use support::saved::read_json;
use support::LoadError;

use crate::presets::TinyLlama;
use crate::report::Report;

/// Where the `train_char_model` example saves the weights.
pub const WEIGHTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/char_model.safetensors");
/// Where it saves its report.
pub const REPORT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/char_model.json");
/// The command that writes both.
pub const TRAIN: &str = "cargo run --release -p ch10-language-models --example train_char_model";

/// The committed model, or why it could not be loaded.
pub fn try_load_model<Dev: Device<f32>>(dev: &Dev) -> Result<TinyLlama<Dev>, LoadError> {
    TinyLlama::load(dev, WEIGHTS, TRAIN)
}

/// The committed model.
///
/// # Panics
/// With [`try_load_model`]'s error, if the weights do not load.
pub fn load_model<Dev: Device<f32>>(dev: &Dev) -> TinyLlama<Dev> {
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

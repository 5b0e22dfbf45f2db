//! The committed model: `weights/reverser.safetensors` (what the `train_reverser` example saved) and its
//! report. The `reverse` example, the notebook, the figures and the explorer load these.

use std::path::Path;

use dfdx::prelude::*;

use crate::model::{new_model, Reverser};
use crate::report::Report;

/// Where the `train_reverser` example saves the weights.
pub const WEIGHTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/reverser.safetensors");
/// Where the `train_reverser` example saves its report.
pub const REPORT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/reverser.json");

/// Why weights could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// no file at the path
    Missing(String),
    /// a file, but not a safetensors file of this model: truncated, other names, other shapes
    Mismatch { path: String, detail: String },
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Missing(p) => write!(f, "{p}: no such file; `cargo run --release -p ch09-capstone --example train_reverser` writes it"),
            LoadError::Mismatch { path, detail } => {
                write!(f, "{path} does not hold this model's weights ({detail}); retrain with the `train_reverser` example")
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// A fresh model with the weights of the safetensors file at `path`.
pub fn load_from<Dev: Device<f32>>(
    dev: &Dev,
    path: impl AsRef<Path>,
) -> Result<Reverser<Dev>, LoadError> {
    let path = path.as_ref();
    let shown = path.display().to_string();
    if !path.exists() {
        return Err(LoadError::Missing(shown));
    }
    let mut model = new_model(dev, 0.0);
    model
        .load_safetensors(path)
        .map_err(|e| LoadError::Mismatch { path: shown, detail: format!("{e:?}") })?;
    Ok(model)
}

/// The committed model.
pub fn load_model<Dev: Device<f32>>(dev: &Dev) -> Result<Reverser<Dev>, LoadError> {
    load_from(dev, WEIGHTS)
}

/// The committed report.
///
/// # Panics
/// If the file is missing or not a report.
pub fn load_report() -> Report {
    let text = std::fs::read_to_string(REPORT).unwrap_or_else(|e| panic!("{REPORT}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{REPORT}: {e}"))
}

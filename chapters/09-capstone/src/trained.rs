//! The committed model: `weights/reverser.safetensors` (what the `train_reverser` example saved)
//! and its report. The `reverse` example, the notebook, the figures and the explorer load these.
//!
//! [`WEIGHTS`], [`REPORT`], [`TRAIN`], [`try_load_from`], [`try_load_model`], [`load_model`] and
//! [`load_report`] are [`RUN`]'s, written by [`support::trained_loaders!`]; the model loads
//! without dropout.

use support::saved::Committed;

use crate::model::new_model;
use crate::presets::Reverser;
use crate::report::Report;

/// The committed run of the `train_reverser` example: its weights, its report and the command.
pub const RUN: Committed = Committed {
    weights: concat!(env!("CARGO_MANIFEST_DIR"), "/weights/reverser.safetensors"),
    report: concat!(env!("CARGO_MANIFEST_DIR"), "/weights/reverser.json"),
    command: "cargo run --release -p ch09-capstone --example train_reverser",
};

support::trained_loaders!(RUN, Reverser, |dev| new_model(dev, 0.0), Report);

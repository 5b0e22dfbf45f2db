//! The committed model: `weights/char_model.safetensors` (what the `train_char_model` example
//! saved, under Hugging Face's names) and its report. The `generate` example, the notebook and
//! the figures load these.
//!
//! [`WEIGHTS`], [`REPORT`], [`TRAIN`], [`try_load_from`], [`try_load_model`], [`load_model`] and
//! [`load_report`] are [`RUN`]'s, written by [`support::trained_loaders!`]; the weights load
//! through [`CausalLm::load`](crate::CausalLm::load), which checks that they are float32.

use support::saved::Committed;

use crate::char_model::report::Report;
use crate::llama::presets::TinyLlama;

/// The committed run of the `train_char_model` example: its weights, its report and the command.
pub const RUN: Committed = Committed {
    weights: concat!(env!("CARGO_MANIFEST_DIR"), "/weights/char_model.safetensors"),
    report: concat!(env!("CARGO_MANIFEST_DIR"), "/weights/char_model.json"),
    command: "cargo run --release -p ch10-language-models --example train_char_model",
};

support::trained_loaders!(
    RUN,
    TinyLlama,
    load: |dev, path| TinyLlama::load(dev, path, RUN.command),
    Report
);

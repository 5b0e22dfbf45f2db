//! The model the `train` example trained and saved (`weights/digits_vit.safetensors`), the report
//! of that run (`weights/digits_vit.json`: the learning curve, the accuracies, the time), and the
//! runs of the `seeds` example (`weights/runs.json`: other seeds, smaller training sets). The
//! notebook, the figures and the book load these instead of training for minutes.
//!
//! [`WEIGHTS`], [`REPORT`], [`TRAIN`], [`try_load_from`], [`try_load_model`], [`load_model`] and
//! [`load_report`] are [`RUN`]'s, written by [`support::trained_loaders!`].

use support::saved::{read_json, Committed};

use crate::report::{Report, Run};
use crate::DigitsVit;

/// The committed run of the `train` example: its weights, its report and the command.
pub const RUN: Committed = Committed {
    weights: concat!(env!("CARGO_MANIFEST_DIR"), "/weights/digits_vit.safetensors"),
    report: concat!(env!("CARGO_MANIFEST_DIR"), "/weights/digits_vit.json"),
    command: "cargo run --release -p ch07-vit --example train",
};

support::trained_loaders!(RUN, DigitsVit, DigitsVit::new, Report);

/// Where the `seeds` example saves its runs.
pub const RUNS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/runs.json");

/// The command that writes [`RUNS`].
pub const SEEDS: &str = "cargo run --release -p ch07-vit --example seeds";

/// The runs of the `seeds` example, in the order it ran them.
///
/// # Panics
/// As [`load_report`].
pub fn load_runs() -> Vec<Run> {
    read_json(RUNS, "a list of runs", SEEDS).unwrap_or_else(|e| panic!("{e}"))
}

#[cfg(test)]
mod tests {
    /// The committed runs read back into this crate's types and write again byte for byte.
    #[test]
    fn committed_runs_resave_unchanged() {
        support::saved::assert_json_resaves_unchanged::<Vec<super::Run>>(super::RUNS, super::SEEDS);
    }
}

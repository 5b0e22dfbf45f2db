//! What the training run records: its configuration, every step's loss, the held-out results
//! beside the baselines, and its time on its machine.

use serde::{Deserialize, Serialize};
use support::saved::RunReport;

use crate::TrainConfig;

/// The run, as the `train_char_model` example writes it next to the weights
/// (`weights/char_model.json`): the configuration, the parameters and the machine
/// (`report.config`, ...), then the [`Results`] (`report.losses`, ...).
pub type Report = RunReport<TrainConfig, Results>;

/// What the run measured: the part of its [`Report`] after the configuration, the parameters and
/// the machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// the training loss of every step, nats per character
    pub losses: Vec<f32>,
    /// characters of the training part and of the held-out part
    pub train_chars: usize,
    pub held_out_chars: usize,
    /// the model on the held-out text, nats per character
    pub held_out_loss: f64,
    /// the add-one character bigram, fitted on the training part, on the held-out text
    pub bigram_loss: f64,
    /// the add-one character frequencies alone, on the held-out text
    pub unigram_loss: f64,
    /// wall time of the training steps, seconds
    pub seconds: f64,
}

//! What a training run records: its configuration, its learning curve, its results and its time.

use serde::{Deserialize, Serialize};
use support::saved::RunReport;

use crate::config::TrainConfig;
use crate::evaluate::LengthScore;

/// One point of the learning curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub step: usize,
    pub lr: f64,
    /// mean loss per real target token over the steps since the last point
    pub loss: f32,
    /// teacher-forced token accuracy over the same steps
    pub token_accuracy: f64,
    /// greedy exact-sequence accuracy on the validation set
    pub exact_accuracy: f64,
    pub seconds: f64,
}

/// The whole run, as the `train_reverser` example writes it next to the weights
/// (`weights/reverser.json`): the configuration, the parameters and the machine
/// (`report.config`, ...), then the [`Results`] (`report.history`, ...).
pub type Report = RunReport<TrainConfig, Results>;

/// What the run measured: the part of its [`Report`] after the configuration, the parameters and
/// the machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results {
    pub history: Vec<Point>,
    /// greedy exact-sequence accuracy on the validation set at the end
    pub validation_accuracy: f64,
    /// the test set (lengths 1-10) and the longer set (11-14), scored at the end
    pub by_length: Vec<LengthScore>,
    /// training time (steps and the learning-curve evaluations), seconds
    pub seconds: f64,
}

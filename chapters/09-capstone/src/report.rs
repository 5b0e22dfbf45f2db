//! What a training run records: its configuration, its learning curve, its results and its time.

use serde::{Deserialize, Serialize};

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

/// The whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub config: TrainConfig,
    pub parameters: usize,
    /// the CPU, its cores and vector instruction sets (`support::machine::describe`)
    pub machine: String,
    pub history: Vec<Point>,
    /// greedy exact-sequence accuracy on the validation set at the end
    pub validation_accuracy: f64,
    /// the test set (lengths 1-10) and the longer set (11-14), scored at the end
    pub by_length: Vec<LengthScore>,
    /// training time (steps and the learning-curve evaluations), seconds
    pub seconds: f64,
}

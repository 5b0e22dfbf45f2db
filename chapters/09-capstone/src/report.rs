//! What a training run records: its configuration, its learning curve, its results and its time.

use serde::{Deserialize, Serialize};

use crate::train::TrainConfig;

/// One point of the learning curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub step: usize,
    pub lr: f64,
    /// mean loss per real target token over the steps since the last point
    pub loss: f32,
    /// teacher-forced token accuracy over the same steps
    pub token_accuracy: f64,
    /// greedy exact-sequence accuracy on the first 200 held-out sequences
    pub exact_accuracy: f64,
    pub seconds: f64,
}

/// The whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub config: TrainConfig,
    pub parameters: usize,
    pub history: Vec<Point>,
    /// greedy exact-sequence accuracy on the held-out set (lengths 1-10)
    pub held_out_accuracy: f64,
    /// per length 1..=14: (length, sequences, exactly right)
    pub by_length: Vec<(usize, usize, usize)>,
    /// training time (steps and the learning-curve evaluations), seconds
    pub seconds: f64,
}

//! What a training run records: its configuration, its learning curve, its results and its time;
//! and what the `seeds` example records of each of its runs.

use serde::{Deserialize, Serialize};
use support::saved::RunReport;

use crate::config::TrainConfig;

/// One point of the learning curve: one epoch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpochStats {
    /// counted from 1
    pub epoch: usize,
    /// the learning rate of the epoch's first step
    pub lr: f64,
    /// mean loss over the epoch's steps (measured in training mode, on shifted images)
    pub train_loss: f32,
    /// share of the epoch's training images classified correctly (training mode)
    pub train_accuracy: f64,
    /// `None` on epochs without an evaluation
    pub test_accuracy: Option<f64>,
    /// wall time since training started
    pub seconds: f64,
}

/// The numbers of a finished run, as the example writes them next to the weights
/// (`weights/digits_vit.json`), for the book's figures and prose: the configuration, the
/// parameters and the machine (`report.config`, ...), then the [`Results`] (`report.history`, ...).
pub type Report = RunReport<TrainConfig, Results>;

/// What the run measured: the part of its [`Report`] after the configuration, the parameters and
/// the machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results {
    pub train_images: usize,
    pub test_images: usize,
    /// test images the trained ViT classifies correctly
    pub test_correct: usize,
    pub test_accuracy: f64,
    /// test images 1-nearest-neighbour classifies correctly, on the same split
    pub knn_correct: usize,
    pub knn_accuracy: f64,
    /// wall time of the training (with its evaluations), in seconds
    pub seconds: f64,
    pub history: Vec<EpochStats>,
}

/// One run of the `seeds` example: [`TrainConfig::digits`](crate::TrainConfig::digits) with
/// another seed and training share, and 1-nearest-neighbour on the same split.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub seed: u64,
    /// the share of each class that went to training; the rest is the test set
    pub train_fraction: f64,
    pub train_images: usize,
    pub test_images: usize,
    /// test images the trained ViT classified correctly
    pub vit_correct: usize,
    /// test images 1-nearest-neighbour classified correctly
    pub knn_correct: usize,
    /// wall time of the ViT's training, in seconds
    pub seconds: f64,
}

impl Run {
    pub fn vit_accuracy(&self) -> f64 {
        self.vit_correct as f64 / self.test_images as f64
    }

    pub fn knn_accuracy(&self) -> f64 {
        self.knn_correct as f64 / self.test_images as f64
    }
}

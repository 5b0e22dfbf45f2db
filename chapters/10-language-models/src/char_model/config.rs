//! [`TrainConfig`]: everything that decides the character model's training run, and the
//! learning-rate schedule it implies. The committed run's configuration is
//! [`TrainConfig::char_model`].

use serde::{Deserialize, Serialize};

/// Everything a training run depends on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainConfig {
    pub steps: usize,
    /// windows per step
    pub batch_size: usize,
    /// characters per window: the longest context the model sees
    pub context: usize,
    pub peak_lr: f64,
    /// steps of linear warm-up to `peak_lr`, before the cosine decay to `peak_lr / 10`
    pub warmup_steps: usize,
    /// seeds the weights and the windows
    pub seed: u64,
}

impl TrainConfig {
    /// The run whose weights are committed.
    pub fn char_model() -> Self {
        TrainConfig {
            steps: 360,
            batch_size: 16,
            context: 128,
            peak_lr: 5e-3,
            warmup_steps: 40,
            seed: 0,
        }
    }

    /// The learning rate of step `step` (counted from 0).
    pub fn lr_at(&self, step: usize) -> f64 {
        if step < self.warmup_steps {
            return self.peak_lr * (step + 1) as f64 / self.warmup_steps as f64;
        }
        let done =
            (step - self.warmup_steps) as f64 / (self.steps - self.warmup_steps).max(1) as f64;
        let cosine = 0.5 * (1.0 + (std::f64::consts::PI * done.min(1.0)).cos());
        self.peak_lr * (0.1 + 0.9 * cosine)
    }
}

//! [`TrainConfig`]: everything that decides a training run, and its learning-rate schedule. The
//! committed run's configuration is [`TrainConfig::reversal`].

use serde::{Deserialize, Serialize};

/// Everything that decides a training run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainConfig {
    /// seeds the model's initial weights, the data and the held-out set
    pub seed: u64,
    pub steps: usize,
    pub batch_size: usize,
    /// the largest learning rate, reached at the end of the warm-up
    pub peak_lr: f64,
    /// steps of linear warm-up; after them the rate falls as `1/sqrt(step)`
    pub warmup_steps: usize,
    /// 0 for plain cross-entropy
    pub label_smoothing: f32,
    pub dropout: f32,
    /// held-out sequences: the training stream never produces one of them with 4 or more digits
    pub held_out: usize,
    /// the first `validation` held-out sequences: the learning curve's, and what the step count
    /// was chosen on; the rest are the test set, scored once, at the end
    pub validation: usize,
    /// steps between two points of the learning curve
    pub eval_every: usize,
}

impl TrainConfig {
    // ANCHOR: schedule
    /// Linear warm-up to `peak_lr`, then `peak_lr * sqrt(warmup / step)`: the schedule of
    /// Vaswani et al. (2017), scaled so that its peak is `peak_lr`.
    pub fn lr_at(&self, step: usize) -> f64 {
        let (s, w) = ((step + 1) as f64, self.warmup_steps.max(1) as f64);
        self.peak_lr * (s / w).min((w / s).sqrt())
    }
    // ANCHOR_END: schedule
}

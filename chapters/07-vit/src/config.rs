//! [`TrainConfig`]: everything that decides a training run, and the learning-rate schedule it
//! implies. The committed run's configuration is [`TrainConfig::digits`].

use serde::{Deserialize, Serialize};

/// Everything that decides a training run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainConfig {
    /// seeds the split, the order of the batches and the shifts; the initial weights and dropout
    /// come from the device, which the examples seed with the same number
    /// (`support::seeded_device(seed)`)
    pub seed: u64,
    /// the share of each class that goes to training
    pub train_fraction: f64,
    pub epochs: usize,
    pub batch_size: usize,
    /// the largest learning rate, reached at the end of the warm-up
    pub peak_lr: f64,
    /// steps of linear warm-up from 0 to `peak_lr`; a cosine decay to 0 follows
    pub warmup_steps: usize,
    /// decoupled weight decay (AdamW): each step also subtracts `lr * weight_decay * w` from
    /// every weight `w`
    pub weight_decay: f64,
    /// every dropout of the model
    pub dropout: f32,
    /// the share of the target probability spread evenly over all classes
    pub label_smoothing: f32,
    /// the probability that a training image is moved by one pixel, in one of the 8 directions
    /// (drawn at random), for each step it is used in
    pub shift: f64,
    /// measure test accuracy after every `eval_every` epochs (and after the last)
    pub eval_every: usize,
}

impl TrainConfig {
    /// Steps per epoch: the training set in batches, the last one possibly smaller.
    pub fn steps_per_epoch(&self, train_len: usize) -> usize {
        train_len.div_ceil(self.batch_size)
    }

    /// The learning rate at `step` (counted from 0) of `total` steps.
    pub fn lr_at(&self, step: usize, total: usize) -> f64 {
        if step < self.warmup_steps {
            return self.peak_lr * (step + 1) as f64 / self.warmup_steps as f64;
        }
        let decay_steps = total.saturating_sub(self.warmup_steps).max(1);
        let progress = (step - self.warmup_steps) as f64 / decay_steps as f64;
        self.peak_lr * 0.5 * (1.0 + (std::f64::consts::PI * progress.min(1.0)).cos())
    }
}

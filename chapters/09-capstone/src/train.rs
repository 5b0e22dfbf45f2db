//! Training: teacher forcing with chapter 6's masks, cross-entropy with optional label smoothing
//! over the real target tokens, Adam with a warm-up.

use ch05_blocks::Mode;
use ch06_masks::MaskSet;
use dfdx::optim::{Adam, AdamConfig};
use dfdx::prelude::*;
use support::{argmax, optimizer_step};

use crate::config::TrainConfig;
use crate::data::{ids, test_set, training_stream, validation_set};
use crate::data::{Batch, Sequences, UNSEEN_FROM_LENGTH};
use crate::decode::exact_accuracy;
use crate::model::new_model;
use crate::presets::{Reverser, HEADS};
use crate::report::Point;
use crate::vocab::{PAD, VOCAB};

/// Model, optimiser and data stream, one step at a time.
pub struct Trainer<Dev: Device<f32>> {
    pub model: Reverser<Dev>,
    pub config: TrainConfig,
    pub step: usize,
    optimizer: Adam<Reverser<Dev>, f32, Dev>,
    grads: Option<Gradients<f32, Dev>>,
    data: Sequences,
    dev: Dev,
}

impl<Dev: Device<f32>> Trainer<Dev> {
    /// A fresh model from `dev` (seed it for a reproducible run) and a training stream that
    /// never produces a held-out sequence.
    pub fn new(dev: &Dev, config: TrainConfig) -> Self {
        let model = new_model(dev, config.dropout);
        let optimizer = Adam::new(&model, AdamConfig { lr: config.peak_lr, ..Default::default() });
        let data = training_stream(&config);
        Trainer { model, config, step: 0, optimizer, grads: None, data, dev: dev.clone() }
    }

    // ANCHOR: step
    /// One optimiser step on a fresh batch. Returns the mean loss per real target token and the
    /// share of real target tokens predicted right (teacher forcing, training mode).
    pub fn step(&mut self) -> (f32, f64) {
        self.optimizer.cfg.lr = self.config.lr_at(self.step);
        let batch = Batch::new(&self.data.take(self.config.batch_size));
        let masks = MaskSet::<HEADS, Dev>::new(&self.dev, &batch.src, &batch.tgt_in, PAD);
        let targets = smoothed_targets(&self.dev, &batch, self.config.label_smoothing);
        let real = batch.real_targets() as f32;

        let grads = self.grads.take().unwrap_or_else(|| self.model.alloc_grads());
        let src = ids(&self.dev, &batch.src).traced(grads);
        let tgt = ids(&self.dev, &batch.tgt_in).put_tape(OwnedTape::default());
        let logits = self.model.forward(src, tgt, masks.as_seq2seq(), Mode::Train);
        let accuracy = token_accuracy(&logits.as_vec(), &batch);
        // cross-entropy summed over the real tokens (padding rows of `targets` are all 0)
        let loss = (logits.log_softmax::<Axis<2>>() * targets).sum::<Rank0, _>().negate() / real;
        let (loss_value, grads) = optimizer_step(loss, &mut self.model, &mut self.optimizer);
        self.grads = Some(grads);
        self.step += 1;
        (loss_value, accuracy)
    }
    // ANCHOR_END: step
}

/// `(batch, len, VOCAB)` targets: `1 - eps` on the right token plus `eps / VOCAB` everywhere
/// for real positions, all zeros for padding.
fn smoothed_targets<Dev: Device<f32>>(
    dev: &Dev,
    batch: &Batch,
    eps: f32,
) -> Tensor<(usize, usize, Const<VOCAB>), f32, Dev> {
    let len = batch.tgt_out[0].len();
    let mut t = vec![0.0f32; batch.tgt_out.len() * len * VOCAB];
    for (row, &token) in t.chunks_mut(VOCAB).zip(batch.tgt_out.iter().flatten()) {
        if token != PAD {
            row.iter_mut().for_each(|x| *x = eps / VOCAB as f32);
            row[token] += 1.0 - eps;
        }
    }
    dev.tensor_from_vec(t, (batch.tgt_out.len(), len, Const))
}

/// The share of real target tokens whose logits pick the right token.
fn token_accuracy(logits: &[f32], batch: &Batch) -> f64 {
    let pairs = logits.chunks(VOCAB).zip(batch.tgt_out.iter().flatten()).filter(|(_, &t)| t != PAD);
    let (right, all) =
        pairs.fold((0, 0), |(r, a), (row, &t)| (r + usize::from(argmax(row) == t), a + 1));
    right as f64 / all as f64
}

/// What the training stream of `config` draws of the short sequences that cannot be held out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortDraws {
    /// distinct sequences of fewer than 4 digits drawn in `config.steps` batches
    pub distinct: usize,
    /// how many such sequences exist: 10 + 100 + 1,000
    pub possible: usize,
    /// test sequences of fewer than 4 digits
    pub in_test: usize,
    /// of those, how many the training stream drew
    pub in_test_drawn: usize,
}

/// Counts [`ShortDraws`] by replaying the training stream of `config`.
pub fn short_draws(config: &TrainConfig) -> ShortDraws {
    let short = |s: &Vec<u8>| s.len() < UNSEEN_FROM_LENGTH;
    let drawn: std::collections::HashSet<Vec<u8>> = training_stream(config)
        .take(config.steps * config.batch_size)
        .into_iter()
        .filter(short)
        .collect();
    let test: Vec<Vec<u8>> = test_set(config).into_iter().filter(short).collect();
    ShortDraws {
        distinct: drawn.len(),
        possible: (1..UNSEEN_FROM_LENGTH).map(|n| 10usize.pow(n as u32)).sum(),
        in_test: test.len(),
        in_test_drawn: test.iter().filter(|s| drawn.contains(*s)).count(),
    }
}

/// What a progress display sees after each step.
#[derive(Clone, Debug)]
pub struct Progress {
    /// counted from 1
    pub step: usize,
    /// this step's mean loss per real target token
    pub loss: f32,
    /// this step's share of real target tokens predicted right (teacher forcing)
    pub token_accuracy: f64,
    /// the learning curve's new point, on every [`eval_every`](TrainConfig::eval_every)th step
    pub point: Option<Point>,
}

/// A trained model and how it got there.
pub struct Trained<Dev: Device<f32>> {
    pub model: Reverser<Dev>,
    pub history: Vec<Point>,
    /// wall time of the steps and the learning-curve evaluations
    pub seconds: f64,
}

/// Trains a fresh model (from `dev`'s generator: seed it with `config.seed`) for `steps` steps of
/// `config` (`config.steps` for the whole run, fewer to stop early with the same schedule), with
/// a point of the learning curve every [`eval_every`](TrainConfig::eval_every) steps: the mean loss and token accuracy of
/// those steps and the validation accuracy. `on_step` is called after every step (for a progress
/// bar).
pub fn train<Dev: Device<f32>>(
    dev: &Dev,
    config: &TrainConfig,
    steps: usize,
    mut on_step: impl FnMut(&Progress),
) -> Trained<Dev> {
    let validation = validation_set(config);
    let mut trainer = Trainer::new(dev, config.clone());
    let start = std::time::Instant::now();
    let (mut history, mut loss_sum, mut acc_sum) = (Vec::new(), 0.0f32, 0.0f64);
    for step in 1..=steps {
        let (loss, token_accuracy) = trainer.step();
        loss_sum += loss;
        acc_sum += token_accuracy;
        let mut point = None;
        if step % config.eval_every == 0 {
            let new = Point {
                step,
                lr: config.lr_at(step - 1),
                loss: loss_sum / config.eval_every as f32,
                token_accuracy: acc_sum / config.eval_every as f64,
                exact_accuracy: exact_accuracy(&trainer.model, dev, &validation),
                seconds: start.elapsed().as_secs_f64(),
            };
            history.push(new.clone());
            (loss_sum, acc_sum) = (0.0, 0.0);
            point = Some(new);
        }
        on_step(&Progress { step, loss, token_accuracy, point });
    }
    Trained { model: trainer.model, history, seconds: start.elapsed().as_secs_f64() }
}

//! Training [`DigitsVit`](crate::DigitsVit) on the digits: Adam with a warm-up and a cosine decay
//! of the learning rate, cross-entropy on the `[CLS]` logits, mini-batches drawn by a seeded
//! shuffle, and images shifted by a pixel now and then. Every random choice comes from
//! [`TrainConfig::seed`].

use std::time::Instant;

use dfdx::nn::ZeroGrads;
use dfdx::optim::{Adam, AdamConfig, WeightDecay};
use dfdx::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use support::{argmax, optimizer_step};

use crate::config::TrainConfig;
use crate::digits::{shifted, Digits, Split, CLASSES, PIXELS};
use crate::evaluate::{accuracy, predict};
use crate::model::{DigitImages, DigitsModel};
use crate::report::EpochStats;
use crate::Mode;

/// What a progress display needs after each step.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub epoch: usize,
    pub step: usize,
    pub total_steps: usize,
    /// mean loss over this epoch's steps so far
    pub loss: f32,
    /// share of this epoch's training images classified correctly so far (in training mode)
    pub train_accuracy: f64,
}

/// The 8 one-pixel moves `(rows down, columns right)`.
const NEIGHBOURS: [(isize, isize); 8] =
    [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

/// Model, optimiser and gradients, one step at a time.
///
/// # Generics
/// - `Model`: what is trained, a [`DigitsModel`] such as [`DigitsVit`](crate::DigitsVit).
/// - `Dev`: the dfdx device.
pub struct Trainer<Model, Dev: Device<f32>> {
    pub model: Model,
    pub config: TrainConfig,
    optimizer: Adam<Model, f32, Dev>,
    grads: Option<Gradients<f32, Dev>>,
    rng: StdRng,
    dev: Dev,
    step: usize,
    total_steps: usize,
}

impl<Model: DigitsModel<Dev>, Dev: Device<f32>> Trainer<Model, Dev> {
    /// A fresh model drawn from `dev`'s generator, and an optimiser for `total_steps` steps.
    pub fn new(dev: &Dev, config: TrainConfig, total_steps: usize) -> Self {
        let mut model = Model::init(dev);
        model.set_dropout(config.dropout);
        let optimizer = Adam::new(
            &model,
            AdamConfig {
                lr: config.peak_lr,
                weight_decay: Some(WeightDecay::Decoupled(config.weight_decay)),
                ..Default::default()
            },
        );
        let rng = StdRng::seed_from_u64(config.seed.wrapping_add(1));
        Trainer {
            model,
            config,
            optimizer,
            grads: None,
            rng,
            dev: dev.clone(),
            step: 0,
            total_steps,
        }
    }

    /// The training images at `batch`, shifted if the configuration says so.
    fn batch_images(&mut self, data: &Digits, batch: &[usize]) -> DigitImages<Dev> {
        let mut pixels = Vec::with_capacity(batch.len() * PIXELS);
        for &i in batch {
            let image = data.scaled(i);
            if self.rng.gen_bool(self.config.shift) {
                let (dy, dx) = NEIGHBOURS[self.rng.gen_range(0..NEIGHBOURS.len())];
                pixels.extend_from_slice(&shifted(&image, dy, dx));
            } else {
                pixels.extend_from_slice(&image);
            }
        }
        self.dev.tensor_from_vec(pixels, (batch.len(), Const, Const, Const))
    }

    /// One optimiser step on the images `batch` of `data`. Returns the batch's mean loss and how
    /// many of its images the model (in training mode) classified correctly.
    // ANCHOR: train_step
    pub fn step(&mut self, data: &Digits, batch: &[usize]) -> (f32, usize) {
        self.optimizer.cfg.lr = self.config.lr_at(self.step, self.total_steps);
        let images = self.batch_images(data, batch);
        let eps = self.config.label_smoothing;
        let targets = data.one_hot(&self.dev, batch) * (1.0 - eps) + eps / CLASSES as f32;

        let grads = self.grads.take().unwrap_or_else(|| self.model.alloc_grads());
        let logits = self.model.logits(images.traced(grads), Mode::Train);
        let correct = count_correct(&logits.as_vec(), &data.labels, batch);
        let loss = cross_entropy_with_logits_loss(logits, targets);
        let (loss_value, grads) = optimizer_step(loss, &mut self.model, &mut self.optimizer);
        self.grads = Some(grads);
        self.step += 1;
        (loss_value, correct)
    }
    // ANCHOR_END: train_step
}

/// How many rows of `logits` (`batch x 10`, flat) pick the label of the image they belong to.
fn count_correct(logits: &[f32], labels: &[u8], batch: &[usize]) -> usize {
    logits.chunks(CLASSES).zip(batch).filter(|(row, &i)| argmax(row) == labels[i] as usize).count()
}

/// A trained model and how it got there.
pub struct Trained<Model> {
    pub model: Model,
    pub history: Vec<EpochStats>,
    /// the final model's digit for every test image
    pub test_predictions: Vec<u8>,
    /// wall time of the whole run, evaluations included
    pub seconds: f64,
}

/// Trains a fresh `Model` (e.g. [`DigitsVit`](crate::DigitsVit)) on `split.train` for `epochs`
/// epochs of `config` (`config.epochs` for the whole run, fewer to stop early with the same
/// schedule, batches and shifts), measuring `split.test` along the way; `on_step` is called after
/// every step (for a progress bar).
///
/// Training allocates tensors of the same sizes over and over: on the CPU, call
/// `dev.enable_cache()` (dfdx's [`dfdx::tensor::Cache`]) first, which lets dfdx reuse freed
/// buffers (measured: 38 s instead of 52 s for the `train` example).
pub fn train<Model: DigitsModel<Dev>, Dev: Device<f32>>(
    dev: &Dev,
    split: &Split,
    config: &TrainConfig,
    epochs: usize,
    mut on_step: impl FnMut(&Progress),
) -> Trained<Model> {
    let start = Instant::now();
    let per_epoch = config.steps_per_epoch(split.train.len());
    let total_steps = per_epoch * config.epochs;
    let mut trainer = Trainer::<Model, Dev>::new(dev, config.clone(), total_steps);
    let mut order: Vec<usize> = (0..split.train.len()).collect();
    let mut shuffle = StdRng::seed_from_u64(config.seed.wrapping_add(2));
    let mut history = Vec::with_capacity(config.epochs);
    let mut test_predictions = Vec::new();
    for epoch in 1..=epochs.min(config.epochs) {
        order.shuffle(&mut shuffle);
        let lr = config.lr_at(trainer.step, total_steps);
        let (mut loss_sum, mut correct, mut seen) = (0.0, 0, 0);
        for (i, batch) in order.chunks(config.batch_size).enumerate() {
            let (loss, hits) = trainer.step(&split.train, batch);
            loss_sum += loss;
            correct += hits;
            seen += batch.len();
            on_step(&Progress {
                epoch,
                step: trainer.step,
                total_steps,
                loss: loss_sum / (i + 1) as f32,
                train_accuracy: correct as f64 / seen as f64,
            });
        }
        let evaluate = epoch % config.eval_every.max(1) == 0 || epoch == config.epochs;
        let test_accuracy = evaluate.then(|| {
            test_predictions = predict(&trainer.model, dev, &split.test);
            accuracy(&test_predictions, &split.test.labels)
        });
        history.push(EpochStats {
            epoch,
            lr,
            train_loss: loss_sum / per_epoch as f32,
            train_accuracy: correct as f64 / seen as f64,
            test_accuracy,
            seconds: start.elapsed().as_secs_f64(),
        });
    }
    Trained {
        model: trainer.model,
        history,
        test_predictions,
        seconds: start.elapsed().as_secs_f64(),
    }
}

//! Training the character-level model: random windows of the training text, next-character
//! cross-entropy at every position, Adam with a warm-up and a cosine decay.

use std::time::Instant;

use dfdx::optim::{Adam, AdamConfig};
use dfdx::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use support::optimizer_step;

use crate::char_model::chars::VOCAB;
use crate::char_model::config::TrainConfig;
use crate::llama::mask::Window;
use crate::llama::presets::TinyLlama;

/// Model, optimiser and the stream of windows, one step at a time.
pub struct Trainer<Dev: Device<f32>> {
    pub model: TinyLlama<Dev>,
    pub config: TrainConfig,
    pub step: usize,
    optimizer: Adam<TinyLlama<Dev>, f32, Dev>,
    grads: Option<Gradients<f32, Dev>>,
    rng: StdRng,
    text: Vec<usize>,
    dev: Dev,
}

impl<Dev: Device<f32>> Trainer<Dev> {
    /// A fresh model drawn from `dev` (seed it with `config.seed`), training on `text` (ids).
    ///
    /// # Panics
    /// If `text` is not longer than one window.
    pub fn new(dev: &Dev, config: TrainConfig, text: Vec<usize>) -> Self {
        assert!(text.len() > config.context + 1, "the training text is shorter than one window");
        let mut model = TinyLlama::new(dev);
        // it never sees more than `context` characters at once, and generates that way too
        model.window = Window(Some(config.context));
        let optimizer = Adam::new(&model, AdamConfig { lr: config.peak_lr, ..Default::default() });
        let rng = StdRng::seed_from_u64(config.seed);
        Trainer { model, config, step: 0, optimizer, grads: None, rng, text, dev: dev.clone() }
    }

    // ANCHOR: step
    /// One optimiser step on `batch` random windows. Returns the mean loss, nats per character.
    pub fn step(&mut self) -> f32 {
        let (b, n) = (self.config.batch_size, self.config.context);
        let (inputs, targets) = random_windows(&mut self.rng, &self.text, b, n);

        self.optimizer.cfg.lr = self.config.lr_at(self.step);
        let grads = self.grads.take().unwrap_or_else(|| self.model.alloc_grads());
        let ids = self.dev.tensor_from_vec(inputs, (b, n)).traced(grads);
        let logits = self.model.forward(ids).logits; // (b, n, VOCAB)
        let loss = cross_entropy_with_logits_loss(logits, one_hot(&self.dev, &targets, (b, n)));
        let (loss, grads) = optimizer_step(loss, &mut self.model, &mut self.optimizer);
        self.grads = Some(grads);
        self.step += 1;
        loss
    }
    // ANCHOR_END: step
}

/// `b` windows of `n` ids at random places in `text`, and the same windows one id later (the
/// targets), each flattened.
pub fn random_windows(
    rng: &mut StdRng,
    text: &[usize],
    b: usize,
    n: usize,
) -> (Vec<usize>, Vec<usize>) {
    let starts: Vec<usize> = (0..b).map(|_| rng.gen_range(0..text.len() - n - 1)).collect();
    let window = |s: usize, shift: usize| &text[s + shift..s + shift + n];
    let inputs: Vec<usize> = starts.iter().flat_map(|&s| window(s, 0).to_vec()).collect();
    let targets: Vec<usize> = starts.iter().flat_map(|&s| window(s, 1).to_vec()).collect();
    (inputs, targets)
}

/// `(b, n, VOCAB)` one-hot rows of `ids`.
pub fn one_hot<Dev: Device<f32>>(
    dev: &Dev,
    ids: &[usize],
    (b, n): (usize, usize),
) -> Tensor<(usize, usize, Const<VOCAB>), f32, Dev> {
    let mut t = vec![0.0f32; ids.len() * VOCAB];
    for (row, &id) in t.chunks_mut(VOCAB).zip(ids) {
        row[id] = 1.0;
    }
    dev.tensor_from_vec(t, (b, n, Const))
}

/// The model's mean `-ln p(next character)` over `ids`, nats per character: `ids` cut into
/// windows of `context + 1`, each character after the first of a window predicted from those
/// before it in the window.
pub fn held_out_loss<Dev: Device<f32>>(
    model: &TinyLlama<Dev>,
    dev: &Dev,
    ids: &[usize],
    context: usize,
) -> f64 {
    let windows: Vec<&[usize]> = ids.chunks_exact(context + 1).collect();
    let (mut total, mut count) = (0.0f64, 0usize);
    for group in windows.chunks(32) {
        let b = group.len();
        let inputs: Vec<usize> = group.iter().flat_map(|w| w[..context].to_vec()).collect();
        let targets: Vec<usize> = group.iter().flat_map(|w| w[1..].to_vec()).collect();
        let logits = model.forward(dev.tensor_from_vec(inputs, (b, context))).logits;
        let log_p = logits.log_softmax::<Axis<2>>().as_vec();
        for (row, &t) in log_p.chunks(VOCAB).zip(&targets) {
            total -= row[t] as f64;
            count += 1;
        }
    }
    total / count as f64
}

/// What a progress display sees after each step.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// counted from 1
    pub step: usize,
    pub loss: f32,
    pub seconds: f64,
}

/// Trains `steps` steps of `config` on `text`, calling `on_step` after each; returns the trainer
/// (with the model) and the loss of every step.
pub fn train<Dev: Device<f32>>(
    dev: &Dev,
    config: &TrainConfig,
    steps: usize,
    text: Vec<usize>,
    mut on_step: impl FnMut(Progress),
) -> (Trainer<Dev>, Vec<f32>) {
    let mut trainer = Trainer::new(dev, config.clone(), text);
    let start = Instant::now();
    let mut losses = Vec::with_capacity(steps);
    for step in 1..=steps {
        let loss = trainer.step();
        losses.push(loss);
        on_step(Progress { step, loss, seconds: start.elapsed().as_secs_f64() });
    }
    (trainer, losses)
}

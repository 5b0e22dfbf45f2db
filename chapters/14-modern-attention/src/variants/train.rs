//! Training the three variants as chapter 10 trains its model (its configuration, windows and
//! schedule), and reading their attention on held-out text as they learn.

use ch10_language_models::char_model::chars::split;
use ch10_language_models::char_model::train::{one_hot, random_windows};
use ch10_language_models::{TrainConfig, VOCAB};
use dfdx::optim::{Adam, AdamConfig};
use dfdx::prelude::*;
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use support::optimizer_step;

use super::model::{Variant, VariantLm};

/// Held-out windows the readings are taken on, and the queries they skip (as chapters 10 and 11
/// do: a query with few keys puts much of its weight on the first whatever it does).
pub const PROBE_WINDOWS: usize = 8;
pub const SKIP_QUERIES: usize = 16;

/// The weight a head spreading its weight evenly would put on position 0, averaged over the
/// queries `skip .. n` (the query at `q` sees `q + 1` keys): `(H_n - H_skip) / (n - skip)`.
pub fn even_spread(n: usize, skip: usize) -> f32 {
    (skip..n).map(|q| 1.0 / (q + 1) as f32).sum::<f32>() / (n - skip) as f32
}

/// What the model's attention does on the held-out windows at one step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    /// steps done
    pub step: usize,
    /// the largest `q·k/sqrt(d)` of any layer, head, query and key it may see
    pub max_score: f32,
    /// per layer, the mean weight on position 0 (over heads, windows and queries from
    /// `SKIP_QUERIES` on)
    pub first_weight: Vec<f32>,
}

/// One run: every step's loss, the readings, and the held-out loss at the end (nats/character).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub variant: Variant,
    /// which seed drew the weights and the windows
    pub seed: u64,
    pub losses: Vec<f32>,
    pub readings: Vec<Reading>,
    pub held_out: f64,
}

/// The model's attention on the first `PROBE_WINDOWS` windows of `held_out`.
pub fn read<Dev: Device<f32>>(
    model: &VariantLm<f32, Dev>,
    dev: &Dev,
    held_out: &[usize],
    n: usize,
    step: usize,
) -> Reading {
    let ids: Vec<usize> = held_out[..PROBE_WINDOWS * n].to_vec();
    let out = model.inspect(dev.tensor_from_vec(ids, (PROBE_WINDOWS, n)));
    let mut max_score = f32::MIN;
    for scores in &out.scores {
        for (i, row) in scores.as_vec().chunks(n).enumerate() {
            let q = i % n; // the query's position: it sees keys 0..=q
            max_score = row[..=q].iter().fold(max_score, |m, &s| m.max(s));
        }
    }
    let first_weight = out
        .weights
        .iter()
        .map(|w| {
            let firsts: Vec<f32> = w
                .as_vec()
                .chunks(n)
                .enumerate()
                .filter(|(i, _)| i % n >= SKIP_QUERIES)
                .map(|(_, row)| row[0])
                .collect();
            firsts.iter().sum::<f32>() / firsts.len() as f32
        })
        .collect();
    Reading { step, max_score, first_weight }
}

/// Mean `-ln p(next character)` over `ids` cut into windows of `n + 1`.
pub fn held_out_loss<Dev: Device<f32>>(
    model: &VariantLm<f32, Dev>,
    dev: &Dev,
    ids: &[usize],
    n: usize,
) -> f64 {
    let windows: Vec<&[usize]> = ids.chunks_exact(n + 1).collect();
    let (mut total, mut count) = (0.0f64, 0usize);
    for group in windows.chunks(32) {
        let inputs: Vec<usize> = group.iter().flat_map(|w| w[..n].to_vec()).collect();
        let logits = model.inspect(dev.tensor_from_vec(inputs, (group.len(), n))).logits;
        let log_p = logits.log_softmax::<Axis<2>>().as_vec();
        let targets = group.iter().flat_map(|w| w[1..].iter());
        for (row, &t) in log_p.chunks(VOCAB).zip(targets) {
            total -= row[t] as f64;
            count += 1;
        }
    }
    total / count as f64
}

/// Trains `variant` for `steps` steps of `config` (chapter 10's run), reading its attention at the
/// start and every `every` steps; `on_step` sees each step's number and loss.
pub fn train<Dev: Device<f32>>(
    dev: &Dev,
    variant: Variant,
    config: &TrainConfig,
    steps: usize,
    every: usize,
    mut on_step: impl FnMut(usize, f32),
) -> (VariantLm<f32, Dev>, Run) {
    let (text, held_out) = split();
    let n = config.context;
    let mut model = VariantLm::new(dev, variant);
    let mut optimizer = Adam::new(&model, AdamConfig { lr: config.peak_lr, ..Default::default() });
    let mut rng = StdRng::seed_from_u64(config.seed);
    let mut grads = None;
    let mut run = Run {
        variant,
        seed: config.seed,
        losses: Vec::new(),
        readings: vec![read(&model, dev, &held_out, n, 0)],
        held_out: 0.0,
    };
    for step in 0..steps {
        let (inputs, targets) = random_windows(&mut rng, &text, config.batch_size, n);
        optimizer.cfg.lr = config.lr_at(step);
        let g = grads.take().unwrap_or_else(|| model.alloc_grads());
        let ids = dev.tensor_from_vec(inputs, (config.batch_size, n)).traced(g);
        let logits = model.inspect(ids).logits;
        let loss =
            cross_entropy_with_logits_loss(logits, one_hot(dev, &targets, (config.batch_size, n)));
        let (loss, g) = optimizer_step(loss, &mut model, &mut optimizer);
        grads = Some(g);
        run.losses.push(loss);
        on_step(step + 1, loss);
        if (step + 1) % every == 0 {
            run.readings.push(read(&model, dev, &held_out, n, step + 1));
        }
    }
    run.held_out = held_out_loss(&model, dev, &held_out, n);
    (model, run)
}

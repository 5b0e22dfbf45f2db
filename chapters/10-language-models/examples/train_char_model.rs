//! Trains the character-level model on *The Devil's Dictionary*:
//! `cargo run --release -p ch10-language-models --example train_char_model`.
//! Shows a progress bar; prints the time, the held-out loss beside the bigram and unigram
//! baselines; saves the weights and a report under `weights/`.

use ch10_language_models::char_model::bigram::{unigram_cross_entropy, Bigram};
use ch10_language_models::char_model::chars::{split, VOCAB};
use ch10_language_models::char_model::report::{Report, Results};
use ch10_language_models::char_model::train::{held_out_loss, train};
use ch10_language_models::char_model::trained::RUN;
use ch10_language_models::TrainConfig;
use dfdx::prelude::*;
use indicatif::{ProgressBar, ProgressStyle};

fn main() {
    let config = TrainConfig::char_model();
    let dev = support::seeded_device(config.seed);
    let (text, held_out) = split();
    let (train_chars, held_out_chars) = (text.len(), held_out.len());
    let bar = ProgressBar::new(config.steps as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} steps, {elapsed} {msg}")
            .expect("a valid template"),
    );
    let (trainer, losses) = train(&dev, &config, config.steps, text.clone(), |p| {
        bar.inc(1);
        bar.set_message(format!("loss {:.3} nats/char", p.loss));
    });
    bar.finish();
    let seconds = bar.elapsed().as_secs_f64();
    let machine = support::machine::describe();
    println!("trained {} steps in {seconds:.1} s on {machine}", config.steps);
    let model = trainer.model;
    let report = Report {
        parameters: model.num_trainable_params(),
        machine,
        results: Results {
            losses,
            train_chars,
            held_out_chars,
            held_out_loss: held_out_loss(&model, &dev, &held_out, config.context),
            bigram_loss: Bigram::fit(&text, VOCAB).cross_entropy(&held_out),
            unigram_loss: unigram_cross_entropy(&text, &held_out, VOCAB),
            seconds,
        },
        config,
    };
    println!(
        "held out ({} characters): model {:.4}, bigram {:.4}, unigram {:.4} nats/char",
        report.held_out_chars, report.held_out_loss, report.bigram_loss, report.unigram_loss
    );
    // both files whole or neither (and `weights/` made if missing): a run stopped while saving
    // leaves the committed pair as it was
    RUN.save(|path| model.save_safetensors(path), &report);
    println!("wrote {} and {}", RUN.weights, RUN.report);
}

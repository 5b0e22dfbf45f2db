//! Trains the reversal model from scratch: `cargo run --release -p ch09-capstone --example
//! train_reverser`.
//! Prints progress (loss, token accuracy, validation accuracy every 100 steps), the time and the
//! test accuracy; saves the weights and a report.

use ch09_capstone::data::validation_set;
use ch09_capstone::decode::exact_accuracy;
use ch09_capstone::evaluate::{by_length, seen_and_unseen, total};
use ch09_capstone::report::{Report, Results};
use ch09_capstone::train;
use ch09_capstone::trained;
use ch09_capstone::TrainConfig;
use dfdx::prelude::*;
use indicatif::{ProgressBar, ProgressStyle};
use support::Dev;

fn main() {
    let config = TrainConfig::reversal();
    let dev = Dev::seed_from_u64(config.seed);
    let bar = ProgressBar::new(config.steps as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} steps, {elapsed} {msg}")
            .expect("a valid template"),
    );
    let run = train(&dev, &config, config.steps, |progress| {
        bar.inc(1);
        if let Some(p) = &progress.point {
            bar.set_message(format!(
                "loss {:.3}, tokens {:.1} %, validation sequences {:.1} %",
                p.loss,
                100.0 * p.token_accuracy,
                100.0 * p.exact_accuracy
            ));
        }
    });
    bar.finish();
    let (model, machine) = (&run.model, support::machine::describe());
    println!("trained {} steps in {:.1} s on {machine}", config.steps, run.seconds);
    let validation_accuracy = exact_accuracy(model, &dev, &validation_set(&config));
    println!("validation exact-sequence accuracy: {:.2} %", 100.0 * validation_accuracy);
    let scores = by_length(model, &dev, &config);
    let ((seen_right, seen), (unseen_right, unseen)) = seen_and_unseen(&scores);
    println!("test, 1-3 digits (training may draw them): {seen_right}/{seen} exactly right");
    println!("test, 4-10 digits (never in training):     {unseen_right}/{unseen} exactly right");
    let (longer_right, longer) = total(&scores, 11..=14);
    println!("longer, 11-14 digits:                      {longer_right}/{longer} exactly right");
    let report = Report {
        config,
        parameters: model.num_trainable_params(),
        machine,
        results: Results {
            history: run.history,
            validation_accuracy,
            by_length: scores,
            seconds: run.seconds,
        },
    };
    // both files whole or neither: a run stopped while saving leaves the committed pair as it was
    trained::RUN.save(|path| model.save_safetensors(path), &report);
    println!("saved weights/reverser.safetensors and weights/reverser.json");
}

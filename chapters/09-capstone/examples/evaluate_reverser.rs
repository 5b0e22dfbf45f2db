//! The committed model, evaluated again from its weights: its size, exact-sequence accuracy per
//! length on the test set and on longer sequences; then, apart, what the training run recorded.

use ch09_capstone::evaluate::{by_length, seen_and_unseen};
use ch09_capstone::train::short_draws;
use ch09_capstone::trained::{load_model, load_report};
use dfdx::prelude::*;
use support::Dev;

fn main() {
    let dev = Dev::default();
    let model = load_model(&dev);
    let report = load_report();
    let config = &report.config;
    println!("Reverser: {} parameters", model.num_trainable_params());
    println!("recomputed from the weights:");
    let scores = by_length(&model, &dev, config);
    println!("length  sequences  exactly right");
    for s in &scores {
        let seen = match s.length {
            1..=3 => "  (test; training draws most of these too)",
            4..=10 => "  (test; never in training)",
            _ => "  (longer than any in training)",
        };
        println!("{:>6}  {:>9}  {:>13}{seen}", s.length, s.sequences, s.right);
    }
    let ((seen_right, seen), (unseen_right, unseen)) = seen_and_unseen(&scores);
    println!("test, 4-10 digits: {unseen_right} of {unseen}; 1-3 digits: {seen_right} of {seen}");
    let short = short_draws(config);
    println!(
        "training drew {} of the {} sequences of 1-3 digits, and {} of the test set's {}",
        short.distinct, short.possible, short.in_test_drawn, short.in_test
    );
    println!("recorded by the training run:");
    println!(
        "{} steps of {} sequences, peak learning rate {}, {:.1} s on {}",
        config.steps, config.batch_size, config.peak_lr, report.seconds, report.machine
    );
    println!("validation accuracy at the end: {:.2} %", 100.0 * report.validation_accuracy);
}

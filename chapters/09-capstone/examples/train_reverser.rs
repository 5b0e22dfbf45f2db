//! Trains the reversal model from scratch: `cargo run --release -p ch09-capstone --example
//! train_reverser`.
//! Prints progress, the held-out accuracy and the time; saves the weights and a report.

use std::time::Instant;

use ch09_capstone::data::LONGER_LENGTHS;
use ch09_capstone::decode::{exact_accuracy, greedy};
use ch09_capstone::report::{Point, Report};
use ch09_capstone::train::{held_out_set, longer_set};
use ch09_capstone::trained;
use ch09_capstone::{TrainConfig, Trainer};
use dfdx::prelude::*;
use indicatif::{ProgressBar, ProgressStyle};
use support::Dev;

const EVAL_EVERY: usize = 100;

fn main() {
    let config = TrainConfig::reversal();
    let dev = Dev::seed_from_u64(config.seed);
    let test = held_out_set(&config);
    let mut trainer = Trainer::new(&dev, config.clone());
    let bar = ProgressBar::new(config.steps as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} steps, {elapsed} {msg}")
            .expect("a valid template"),
    );
    let start = Instant::now();
    let (mut history, mut loss_sum, mut acc_sum) = (Vec::new(), 0.0f32, 0.0f64);
    for step in 1..=config.steps {
        let (loss, acc) = trainer.step();
        loss_sum += loss;
        acc_sum += acc;
        bar.inc(1);
        if step % EVAL_EVERY == 0 {
            let exact = exact_accuracy(&trainer.model, &dev, &test[..200]);
            let point = Point {
                step,
                lr: config.lr_at(step - 1),
                loss: loss_sum / EVAL_EVERY as f32,
                token_accuracy: acc_sum / EVAL_EVERY as f64,
                exact_accuracy: exact,
                seconds: start.elapsed().as_secs_f64(),
            };
            bar.set_message(format!(
                "loss {:.3}, tokens {:.1} %, sequences {:.1} %",
                point.loss,
                100.0 * point.token_accuracy,
                100.0 * exact
            ));
            history.push(point);
            (loss_sum, acc_sum) = (0.0, 0.0);
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    bar.finish();
    let accuracy = exact_accuracy(&trainer.model, &dev, &test);
    println!("trained {} steps in {seconds:.1} s", config.steps);
    println!("held-out exact-sequence accuracy (lengths 1-10): {:.2} %", 100.0 * accuracy);
    // lengths seen in training (the held-out set) and longer ones (never seen)
    let longer = longer_set(&config);
    let mut by_length = Vec::new();
    for len in 1..=*LONGER_LENGTHS.end() {
        let of_len: Vec<Vec<u8>> =
            test.iter().chain(&longer).filter(|s| s.len() == len).cloned().collect();
        let answers = greedy(&trainer.model, &dev, &of_len);
        let right =
            of_len.iter().zip(&answers).filter(|(d, a)| d.iter().rev().eq(a.iter())).count();
        println!("length {len:>2}: {right:>3}/{:<3} exactly right", of_len.len());
        by_length.push((len, of_len.len(), right));
    }
    trainer.model.save_safetensors(trained::WEIGHTS).expect("write the weights");
    let parameters = trainer.model.num_trainable_params();
    let report =
        Report { config, parameters, history, held_out_accuracy: accuracy, by_length, seconds };
    let json = serde_json::to_string_pretty(&report).expect("serialisable") + "\n";
    std::fs::write(trained::REPORT, json).expect("write the report");
    println!("saved weights/reverser.safetensors and weights/reverser.json");
}

//! The committed model, evaluated again: its size, the held-out accuracy the report recorded
//! (recomputed here), accuracy by length, and what the training run recorded.

use ch09_capstone::decode::exact_accuracy;
use ch09_capstone::train::held_out_set;
use ch09_capstone::trained::{load_model, load_report};
use dfdx::prelude::*;
use support::Dev;

fn main() {
    let dev = Dev::default();
    let model = load_model(&dev).expect("the committed weights");
    let report = load_report();
    let test = held_out_set(&report.config);
    println!("Reverser: {} parameters", model.num_trainable_params());
    let accuracy = exact_accuracy(&model, &dev, &test);
    println!(
        "held-out sequences (lengths 1-10): {}, exactly reversed: {:.2} %",
        test.len(),
        100.0 * accuracy
    );
    println!("length  sequences  exactly right");
    for &(len, all, right) in &report.by_length {
        let seen = if len <= 10 { "" } else { "  (longer than any in training)" };
        println!("{len:>6}  {all:>9}  {right:>13}{seen}");
    }
    let c = &report.config;
    println!(
        "recorded training: {} steps of {} sequences, peak learning rate {}, {:.1} s",
        c.steps, c.batch_size, c.peak_lr, report.seconds
    );
}

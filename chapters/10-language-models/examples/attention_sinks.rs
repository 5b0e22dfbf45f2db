//! How much attention each head of the committed model puts on the first position of its window,
//! beside what spreading it evenly would put there, on 16 held-out windows of 128 characters, for
//! the queries from position 16 on (`cargo run -p ch10-language-models --example attention_sinks`).
//! Layers and heads are counted from 1, as in the text.

use ch10_language_models::analysis::reading::{layer_weights, sinks};
use ch10_language_models::char_model::chars::split;
use ch10_language_models::char_model::trained::load_model;

fn main() {
    let dev = support::Dev::default();
    let model = load_model(&dev);
    let (_, held_out) = split();
    let weights = layer_weights(&model, &dev, &held_out, 16, 128);
    println!("| layer | head | weight on position 0 | even spread | ratio |");
    println!("|---:|---:|---:|---:|---:|");
    for s in sinks(&weights, 4, 128) {
        println!(
            "| {} | {} | {:.3} | {:.3} | {:.1} |",
            s.layer + 1,
            s.head + 1,
            s.first,
            s.uniform,
            s.first / s.uniform
        );
    }
}

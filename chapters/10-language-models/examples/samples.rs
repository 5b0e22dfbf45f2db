//! Seeded samples from the committed character-level model, each generated twice, with the KV
//! cache and recomputing everything, and checked equal; then the share of the words written
//! that are words of the training text
//! (`cargo run --release -p ch10-language-models --example samples`).

use ch10_language_models::analysis::words::{known_in_samples, sample_texts, SAMPLES};
use ch10_language_models::char_model::trained::load_model;
use ch10_language_models::Recompute;

fn main() {
    let dev = support::Dev::default();
    let model = load_model(&dev);
    let cached = sample_texts(&model, Recompute::NewTokenOnly);
    let recomputed = sample_texts(&model, Recompute::Everything);
    assert_eq!(cached, recomputed, "the cache changed the text");
    for ((prompt, seed), text) in SAMPLES.iter().zip(&cached) {
        println!("--- prompt {prompt:?}, temperature 0.8, seed {seed}:");
        println!("{prompt}{text}\n");
    }
    let (known, all) = known_in_samples(&cached);
    println!(
        "--- words written (prompts left out) that are words of the training text: {known} of {all} ({:.0} %)",
        100.0 * known as f64 / all as f64
    );
}

//! Seeded samples from the committed character-level model, each generated twice, with the KV
//! cache and recomputing everything, and checked equal; then the share of the words written
//! that are words of the training text
//! (`cargo run --release -p ch10-language-models --example samples`).

use ch10_language_models::analysis::words::{known_words, SAMPLES, SAMPLE_LENGTH};
use ch10_language_models::char_model::chars::split;
use ch10_language_models::char_model::trained::load_model;
use ch10_language_models::{decode, encode, generate, Recompute, Sampling};

fn main() {
    let dev = support::Dev::default();
    let model = load_model(&dev);
    let mut written = String::new();
    for (prompt, seed) in SAMPLES {
        let sampling = Sampling::Sample { temperature: 0.8, top_k: None, seed };
        let ids = encode(prompt).expect("plain ASCII");
        let cached = generate(&model, &ids, SAMPLE_LENGTH, sampling, Recompute::NewTokenOnly);
        let recomputed = generate(&model, &ids, SAMPLE_LENGTH, sampling, Recompute::Everything);
        assert_eq!(cached, recomputed, "the cache changed the text");
        println!("--- prompt {prompt:?}, temperature 0.8, seed {seed}:");
        println!("{prompt}{}\n", decode(&cached));
        written.push_str(&decode(&cached));
        written.push('\n');
    }
    let (known, all) = known_words(&written, &decode(&split().0));
    println!(
        "--- words written (prompts left out) that are words of the training text: {known} of {all} ({:.0} %)",
        100.0 * known as f64 / all as f64
    );
}

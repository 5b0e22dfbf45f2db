//! Seeded samples from the committed character-level model, each generated twice, with the KV
//! cache and recomputing everything, and checked equal
//! (`cargo run --release -p ch10-language-models --example samples`).

use ch10_language_models::trained::load_model;
use ch10_language_models::{decode, encode, generate, Recompute, Sampling};

fn main() {
    let dev = support::Dev::default();
    let model = load_model(&dev);
    for (prompt, seed) in [("LAWYER, n.", 1), ("PHILOSOPHY, n.", 2), ("The", 3)] {
        let sampling = Sampling::Sample { temperature: 0.8, top_k: None, seed };
        let ids = encode(prompt).expect("plain ASCII");
        let cached = generate(&model, &ids, 160, sampling, Recompute::NewTokenOnly);
        let recomputed = generate(&model, &ids, 160, sampling, Recompute::Everything);
        assert_eq!(cached, recomputed, "the cache changed the text");
        println!("--- prompt {prompt:?}, temperature 0.8, seed {seed}:");
        println!("{prompt}{}\n", decode(&cached));
    }
}

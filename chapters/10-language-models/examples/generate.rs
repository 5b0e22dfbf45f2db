//! Writes text with the committed character-level model:
//! `cargo run --release -p ch10-language-models --example generate -- --prompt "LAWYER, n."
//! [--tokens N] [--temperature T] [--top-k K] [--seed S]`.
//! Generates once with the KV cache and once recomputing everything, prints both (they are the
//! same text) and the time per character of each. A bad argument exits with status 2.

use std::time::Instant;

use ch10_language_models::char_model::cli::GenerateArgs;
use ch10_language_models::char_model::trained::{load_model, load_report};
use ch10_language_models::{decode, encode, generate, Recompute, Sampling};

fn main() {
    let args = support::cli::args_or_exit();
    let context = load_report().config.context;
    let args = GenerateArgs::parse(&args, context).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2);
    });
    let dev = support::Dev::default();
    let model = load_model(&dev);
    let prompt = encode(&args.prompt).expect("checked by GenerateArgs::parse");
    let sampling =
        Sampling::Sample { temperature: args.temperature, top_k: args.top_k, seed: args.seed };
    let mut texts = Vec::new();
    for (name, recompute) in [
        ("with the KV cache", Recompute::NewTokenOnly),
        ("without the cache", Recompute::Everything),
    ] {
        let start = Instant::now();
        let ids = generate(&model, &prompt, args.tokens, sampling, recompute);
        let per_token = start.elapsed().as_secs_f64() * 1e3 / args.tokens as f64;
        println!("--- {name}: {} characters, {per_token:.2} ms per character", args.tokens);
        println!("{}{}", args.prompt, decode(&ids));
        texts.push(ids);
    }
    let same = texts[0] == texts[1];
    println!("--- the two texts are {}", if same { "identical" } else { "DIFFERENT" });
    println!("measured on {}", support::machine::describe());
    if !same {
        std::process::exit(1);
    }
}

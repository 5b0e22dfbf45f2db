//! Prefill and decode speed of the decode path, `f32` and quantized, against chapter 10's model:
//! a 32-token prompt, then 64 greedy tokens, best of 3
//! (`cargo run --release -p ch11-real-llm --example decode_speed`).

use std::time::Instant;

use ch10_language_models::llama::lm::LanguageModel;
use ch11_real_llm::decode::{Decoder, Keep, Policy, Weights};
use ch11_real_llm::gguf::Gguf;
use ch11_real_llm::{model_file, smollm2};

const PROMPT: usize = 32;
const NEW: usize = 64;

fn argmax(xs: &[f32]) -> usize {
    support::argmax(xs)
}

fn time_decoder(model: &Decoder, prompt: &[usize]) -> (f64, f64, Vec<usize>) {
    let mut cache = model.new_cache(Policy::Full { capacity: PROMPT + NEW });
    let start = Instant::now();
    let logits = model.forward(prompt, &mut cache, Keep::Last);
    let prefill = start.elapsed().as_secs_f64();
    let mut tokens = vec![argmax(&logits)];
    let start = Instant::now();
    for _ in 1..NEW {
        let logits = model.forward(&tokens[tokens.len() - 1..], &mut cache, Keep::Last);
        tokens.push(argmax(&logits));
    }
    (PROMPT as f64 / prefill, (NEW - 1) as f64 / start.elapsed().as_secs_f64(), tokens)
}

fn time_dfdx<M: LanguageModel>(model: &M, prompt: &[usize]) -> (f64, f64, Vec<usize>) {
    let mut cache = model.new_cache();
    let start = Instant::now();
    let logits = model.logits_cached(prompt, &mut cache);
    let prefill = start.elapsed().as_secs_f64();
    let mut tokens = vec![argmax(&logits[logits.len() - model.vocab()..])];
    let start = Instant::now();
    for _ in 1..NEW {
        let logits = model.logits_cached(&tokens[tokens.len() - 1..], &mut cache);
        tokens.push(argmax(&logits));
    }
    (PROMPT as f64 / prefill, (NEW - 1) as f64 / start.elapsed().as_secs_f64(), tokens)
}

fn best(runs: Vec<(f64, f64, Vec<usize>)>) -> (f64, f64, Vec<usize>) {
    let p = runs.iter().map(|r| r.0).fold(0.0, f64::max);
    let d = runs.iter().map(|r| r.1).fold(0.0, f64::max);
    (p, d, runs[0].2.clone())
}

fn main() {
    let file = Gguf::parse(model_file::read().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    }))
    .unwrap();
    let prompt: Vec<usize> = (0..PROMPT).map(|i| 100 + 37 * i).collect();
    println!("{}", support::machine::describe());
    let mut reference = None;
    let only_quantized = std::env::var("ONLY_QUANTIZED").is_ok();
    for weights in [Weights::Dequantized, Weights::Quantized] {
        if only_quantized && weights == Weights::Dequantized {
            continue;
        }
        let model = Decoder::from_gguf(&file, weights).unwrap();
        let (p, d, tokens) = best((0..3).map(|_| time_decoder(&model, &prompt)).collect());
        println!(
            "decoder {weights:?}: prefill {p:.1} tokens/s, decode {d:.1} tokens/s, {:.1} MB per token",
            model.bytes_per_token() as f64 / 1e6
        );
        reference.get_or_insert(tokens.clone());
        println!("  same tokens as f32: {}", reference.as_ref() == Some(&tokens));
    }
    if only_quantized {
        return;
    }
    let model = smollm2::from_gguf(&file, &support::Dev::default()).unwrap();
    let (p, d, tokens) = best((0..2).map(|_| time_dfdx(&model, &prompt)).collect());
    println!("chapter 10's model: prefill {p:.1} tokens/s, decode {d:.1} tokens/s");
    println!("  same tokens as f32: {}", reference.as_ref() == Some(&tokens));
}

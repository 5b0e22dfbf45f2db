//! Attention sinks in a real model (Xiao et al. 2023): for every layer and head, the mean weight
//! on the first position of 4 windows of 128 tokens of chapter 10's text, for the queries from
//! position 16 on, beside what an even spread would put there
//! (`cargo run --release -p ch11-real-llm --example attention_sinks`). Layers and heads counted
//! from 1. Work in progress.

use ch10_language_models::analysis::reading::sinks;
use ch10_language_models::char_model::chars::TEXT;
use ch11_real_llm::gguf::Gguf;
use ch11_real_llm::tokenizer::Tokenizer;
use ch11_real_llm::{model_file, smollm2};
use dfdx::prelude::*;

fn main() {
    let bytes = model_file::read().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let file = Gguf::parse(bytes).unwrap_or_else(|e| panic!("{e}"));
    let tok = Tokenizer::from_gguf(&file).unwrap_or_else(|e| panic!("{e}"));
    let dev = support::Dev::default();
    let model = smollm2::from_gguf(&file, &dev).unwrap_or_else(|e| panic!("{e}"));
    let (windows, context) = (4, 128);
    let ids: Vec<usize> =
        tok.encode(TEXT).into_iter().take(windows * context).map(|i| i as usize).collect();
    let input = dev.tensor_from_vec(ids, (windows, context));
    let weights: Vec<Vec<f32>> =
        model.forward(input).weights.into_iter().map(|w| w.as_vec()).collect();
    let all = sinks(&weights, 9, context);
    println!("| layer | mean weight on position 0, heads 1-9 | even spread |");
    println!("|---:|---|---:|");
    for layer in all.chunks(9) {
        let cells: Vec<String> = layer.iter().map(|s| format!("{:.2}", s.first)).collect();
        println!("| {} | {} | {:.3} |", layer[0].layer + 1, cells.join(" "), layer[0].uniform);
    }
    let sinks_over_half = all.iter().filter(|s| s.first > 0.5).count();
    println!(
        "{sinks_over_half} of {} heads put more than half their weight on position 0",
        all.len()
    );
}

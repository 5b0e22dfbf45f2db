//! Prefill of longer prompts on this machine: the first 256 and 1,024 tokens of chapter 10's text
//! run at once on the decode path with the file's quantized blocks, best and median of 3 rounds,
//! and the token each prompt predicts (`cargo run --release -p ch11-real-llm --example
//! prompt_speed`). `--json` prints one round as JSON, with the prompts' ids, for
//! `compare/compare_speed.py`, which runs llama.cpp on the same ids.

use ch11_real_llm::decode::{Decoder, Weights};
use ch11_real_llm::speed::{prompt_round, LONG_PROMPTS};
use ch11_real_llm::tokenizer::Tokenizer;
use ch11_real_llm::{model_file, streaming};
use serde_json::json;
use support::cli::flag_or_exit;
use support::rounds::Summary;

fn main() {
    let json = flag_or_exit("--json", "usage: prompt_speed [--json]");
    let file = model_file::open_or_exit();
    let text = streaming::text_ids(&Tokenizer::from_gguf(&file).unwrap());
    let model = Decoder::from_gguf(&file, Weights::Quantized).unwrap();
    let rounds = if json { 1 } else { 3 };
    let mut prompts = Vec::new();
    for n in LONG_PROMPTS {
        let ids = &text[..n];
        let runs: Vec<(f64, usize)> = (0..rounds).map(|_| prompt_round(&model, ids)).collect();
        if json {
            prompts.push(
                json!({"tokens": n, "ids": ids, "tokens_per_s": runs[0].0, "next": runs[0].1}),
            );
            continue;
        }
        let rates: Vec<f64> = runs.iter().map(|r| r.0).collect();
        let s = Summary::of(&rates).expect("positive rates");
        println!(
            "{n:>5} tokens: prefill {:6.1} tokens/s (median {:6.1}) over {} rounds; next token {}",
            s.best, s.median, s.rounds, runs[0].1
        );
    }
    if json {
        let run = json!({
            "machine": support::machine::describe(),
            "isa": ch08_efficient::fast::Isa::chosen().name(),
            "threads": rayon::current_num_threads(),
            "prompts": prompts,
        });
        println!("{run}");
    } else {
        println!("{}", support::machine::describe());
    }
}

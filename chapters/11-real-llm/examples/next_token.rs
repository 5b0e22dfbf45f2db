//! The five most likely next tokens after a prompt given as token ids
//! (`cargo run --release -p ch11-real-llm --example next_token -- 504 3575 282 4649 314`), with
//! SmolLM2's weights on chapter 10's model.

use ch11_real_llm::gguf::Gguf;
use ch11_real_llm::{model_file, smollm2};
use dfdx::prelude::*;
use support::cli::or_exit;

fn main() {
    let usage = "usage: next_token ID [ID ...]";
    let id = |a: &String| a.parse().map_err(|_| format!("{a:?} is not a token id; {usage}"));
    let ids: Vec<usize> = support::cli::args_or_exit().iter().map(|a| or_exit(id(a))).collect();
    if ids.is_empty() {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let bytes = model_file::read().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let start = std::time::Instant::now();
    let file = Gguf::parse(bytes).unwrap_or_else(|e| panic!("{e}"));
    let dev = support::Dev::default();
    let model = smollm2::from_gguf(&file, &dev).unwrap_or_else(|e| panic!("{e}"));
    println!("loaded in {:.1} s", start.elapsed().as_secs_f64());
    let n = ids.len();
    let start = std::time::Instant::now();
    let logits = model.forward(dev.tensor_from_vec(ids, (1, n))).logits.as_vec();
    println!(
        "forward in {:.2} s on {}",
        start.elapsed().as_secs_f64(),
        support::machine::describe()
    );
    let last = &logits[(n - 1) * 49152..];
    let mut order: Vec<usize> = (0..last.len()).collect();
    order.sort_by(|&a, &b| last[b].total_cmp(&last[a]));
    for &t in &order[..5] {
        println!("{t:>6} {:.4}", last[t]);
    }
    println!("first 8: {:?}", &last[..8]);
}

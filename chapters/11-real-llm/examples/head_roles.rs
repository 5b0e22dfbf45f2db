//! SmolLM2's heads by what they do: previous-token heads on 4 windows of 128 tokens of chapter
//! 10's text, and duplicate and induction heads on 100 distinct random tokens written twice (4
//! seeds) (`cargo run --release -p ch11-real-llm --example head_roles`), with the attention sinks;
//! `--save` writes them to `measurements/heads.json` for the page's figures. Layers and heads
//! counted from 1.

use ch11_real_llm::heads::{self, HeadScores};
use ch11_real_llm::tokenizer::Tokenizer;
use ch11_real_llm::{model_file, smollm2};
use support::cli::flag_or_exit;

fn show(name: &str, scores: &HeadScores) {
    let top: Vec<String> = (scores.top(5).iter())
        .map(|(l, h, s)| format!("layer {} head {} {s:.2}", l + 1, h + 1))
        .collect();
    println!("{name}: {} heads above 0.3; highest: {}", scores.above(0.3), top.join(", "));
}

fn main() {
    let save = flag_or_exit("--save", "usage: head_roles [--save]");
    let file = model_file::open_or_exit();
    let tok = Tokenizer::from_gguf(&file).unwrap_or_else(|e| panic!("{e}"));
    let model =
        smollm2::from_gguf(&file, &support::Dev::default()).unwrap_or_else(|e| panic!("{e}"));
    let roles = heads::roles(&model, &tok);
    show("position 0 (sink)", &roles.sinks);
    println!("  (an even spread would put {:.3} there)", roles.even_spread);
    show("previous token", &roles.previous);
    show("earlier copy (duplicate)", &roles.duplicate);
    show("after the earlier copy (induction)", &roles.induction);
    if save {
        let json = serde_json::to_string_pretty(&roles).expect("serialisable");
        std::fs::write(heads::committed_path(), json + "\n").expect("measurements/heads.json");
        println!("wrote measurements/heads.json");
    }
}

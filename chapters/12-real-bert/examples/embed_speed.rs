//! Sentences per second for 256 entries of chapter 10's text, in batches of 32, on both paths:
//! one round each, printed as lines, or as JSON with `--json` (for `compare/compare_speed.py`,
//! which alternates rounds with sentence-transformers).
//!
//! ```text
//! cargo run --release -p ch12-real-bert --example embed_speed
//! ```

use ch12_real_bert::sentence::Path;
use ch12_real_bert::speed::{seconds, texts};
use ch12_real_bert::SentenceEncoder;
use support::cli::flag_or_exit;

fn main() {
    let json = flag_or_exit("--json", "usage: embed_speed [--json]");
    let encoder = SentenceEncoder::load_or_exit(&support::Dev::default());
    let texts = texts();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let tokens: usize = texts.iter().map(|t| encoder.ids(t).len()).sum();
    let mut rows = Vec::new();
    for (path, name) in [(Path::Fast, "fast path"), (Path::Dfdx, "chapter 5's blocks (dfdx)")] {
        let s = seconds(&encoder, path, &texts);
        let rate = texts.len() as f64 / s;
        if !json {
            println!(
                "{name:>26}: {} texts, {tokens} tokens in {s:.2} s, {rate:.1} sentences/s",
                texts.len()
            );
        }
        rows.push(serde_json::json!({ "program": name, "seconds": s, "sentences_per_s": rate }));
    }
    if json {
        let machine = support::machine::describe();
        let isa = encoder.fast.isa.name();
        let out = serde_json::json!({
            "machine": machine, "isa": isa, "sentences": texts.len(), "tokens": tokens,
            "programs": rows, "texts": texts,
        });
        println!("{out}");
    }
}

//! Sentence embeddings of the texts on the command line, and every pair's cosine similarity.
//!
//! ```text
//! cargo run --release -p ch12-real-bert --example embed -- "first sentence" "second" ...
//! cargo run --release -p ch12-real-bert --example embed -- --json "a text"   # the vectors
//! ```

use ch12_real_bert::cli::parse_embed_args;
use ch12_real_bert::{cosine_matrix, SentenceEncoder};
use support::cli::{args_or_exit, or_exit};
use support::Dev;

fn main() {
    let args = or_exit(parse_embed_args(&args_or_exit()));
    let encoder = SentenceEncoder::load_or_exit(&Dev::default());
    let texts: Vec<&str> = args.texts.iter().map(String::as_str).collect();
    let vectors = encoder.embed_fast(&texts);
    if args.json {
        let rows: Vec<_> = texts
            .iter()
            .zip(&vectors)
            .map(|(t, v)| serde_json::json!({ "text": t, "embedding": v }))
            .collect();
        println!("{}", serde_json::Value::Array(rows));
        return;
    }
    for (i, t) in texts.iter().enumerate() {
        println!("[{i}] {t}");
    }
    let header: String = (0..texts.len()).map(|j| format!("{:>8}", format!("[{j}]"))).collect();
    println!("\ncosine similarity\n     {header}");
    for (i, row) in cosine_matrix(&vectors).iter().enumerate() {
        let cells: String = row.iter().map(|c| format!("{c:>8.4}")).collect();
        println!("{:>4} {cells}", format!("[{i}]"));
    }
}

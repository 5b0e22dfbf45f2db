//! How long the tokenizer takes on chapter 10's whole text (Bierce's dictionary), best of 3
//! (`cargo run --release -p ch11-real-llm --example tokenizer_speed`).

use ch10_language_models::char_model::chars::TEXT;
use ch11_real_llm::gguf::Gguf;
use ch11_real_llm::model_file;
use ch11_real_llm::tokenizer::Tokenizer;

fn main() {
    let bytes = model_file::read().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let tok = Tokenizer::from_gguf(&Gguf::parse(bytes).unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or_else(|e| panic!("{e}"));
    let (mut best, mut n) = (f64::INFINITY, 0);
    for _ in 0..3 {
        let start = std::time::Instant::now();
        n = tok.encode(TEXT).len();
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "{} characters, {n} tokens in {:.3} s (best of 3) on {}",
        TEXT.chars().count(),
        best,
        support::machine::describe()
    );
    assert_eq!(tok.decode(&tok.encode(TEXT)), TEXT);
}

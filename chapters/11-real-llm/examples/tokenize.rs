//! The token ids of a text as a JSON array on one line, then each token as text
//! (`cargo run --release -p ch11-real-llm --example tokenize -- "text"`), with SmolLM2's tokenizer
//! from its GGUF file.

use ch11_real_llm::gguf::Gguf;
use ch11_real_llm::model_file;
use ch11_real_llm::tokenizer::Tokenizer;

fn main() {
    let text = support::cli::args_or_exit().join(" ");
    let fail = |e: String| -> ! {
        eprintln!("{e}");
        std::process::exit(2)
    };
    let file = Gguf::parse(model_file::read().unwrap_or_else(|e| fail(e)))
        .unwrap_or_else(|e| fail(e.to_string()));
    let tok = Tokenizer::from_gguf(&file).unwrap_or_else(|e| fail(e));
    let ids = tok.encode(&text);
    // the ids alone on the first line (scripts read it), then each token as text
    println!("{ids:?}");
    let pieces: Vec<String> = tok.pieces(&ids).iter().map(|p| format!("{p:?}")).collect();
    println!("{} tokens: {}", ids.len(), pieces.join(" "));
}

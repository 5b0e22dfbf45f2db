//! Chat with SmolLM2-135M-Instruct on the book's code:
//! `cargo run --release -p ch11-real-llm --example chat -- "What is the capital of France?"`
//! (greedy; the answer streams, then prefill and decode speed). Work in progress: the options
//! `--system`, `--tokens`, `--temperature`, `--top-k`, `--seed`, `--raw` and `--ids` come next.

use ch11_real_llm::chat::{chat_prompt, reply, Choice, DEFAULT_SYSTEM};
use ch11_real_llm::gguf::Gguf;
use ch11_real_llm::tokenizer::Tokenizer;
use ch11_real_llm::{model_file, smollm2};
use std::io::Write;

fn main() {
    let question = std::env::args().skip(1).collect::<Vec<_>>().join(" ");
    if question.trim().is_empty() {
        eprintln!("usage: chat \"a question\"");
        std::process::exit(2);
    }
    let bytes = model_file::read().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let file = Gguf::parse(bytes).unwrap_or_else(|e| panic!("{e}"));
    let tok = Tokenizer::from_gguf(&file).unwrap_or_else(|e| panic!("{e}"));
    let dev = support::Dev::default();
    let model = smollm2::from_gguf(&file, &dev).unwrap_or_else(|e| panic!("{e}"));
    let prompt = tok.encode(&chat_prompt(DEFAULT_SYSTEM, &question));
    let stop = tok.id("<|im_end|>").expect("the file has <|im_end|>");
    let choice = Choice { top_k: 1, temperature: 1.0, seed: 0 };
    let r = reply(&model, &tok, &prompt, 256, choice, stop, |text| {
        print!("{text}");
        std::io::stdout().flush().ok();
    });
    println!();
    let decoded = r.ids.len();
    eprintln!(
        "prefill {} tokens at {:.0} tokens/s; decode {} tokens at {:.1} tokens/s; on {}",
        r.prompt_tokens,
        r.prompt_tokens as f64 / r.prefill_seconds,
        decoded,
        decoded as f64 / r.decode_seconds,
        support::machine::describe()
    );
}

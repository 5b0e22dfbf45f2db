//! Chat with SmolLM2-135M-Instruct on the book's code (the decode path, on the file's quantized
//! blocks):
//! `cargo run --release -p ch11-real-llm --example chat -- "What is the capital of France?"`.
//! The answer streams as it is generated, then prefill and decode speed. Options: `--system`,
//! `--tokens`, `--temperature`, `--top-k` (1, the default: greedy; 0: every token), `--seed`, `--raw` (a plain
//! continuation, no template), `--ids` (the generated ids as a JSON array). A mistake, or a
//! missing model file, is one line on stderr and exit status 2.

use ch11_real_llm::chat::{chat_prompt, reply};
use ch11_real_llm::cli::parse_chat_args;
use ch11_real_llm::decode::{Decoder, Weights};
use ch11_real_llm::gguf::Gguf;
use ch11_real_llm::model_file;
use ch11_real_llm::tokenizer::Tokenizer;
use std::io::Write;

fn fail(message: impl std::fmt::Display) -> ! {
    eprintln!("{message}");
    std::process::exit(2)
}

fn main() {
    let args = support::cli::args_or_exit();
    let a = parse_chat_args(&args).unwrap_or_else(|e| fail(e));
    let file =
        Gguf::parse(model_file::read().unwrap_or_else(|e| fail(e))).unwrap_or_else(|e| fail(e));
    let tok = Tokenizer::from_gguf(&file).unwrap_or_else(|e| fail(e));
    let model = Decoder::from_gguf(&file, Weights::Quantized).unwrap_or_else(|e| fail(e));
    let text = if a.raw { a.prompt.clone() } else { chat_prompt(&a.system, &a.prompt) };
    let prompt = tok.encode(&text);
    let context = ch11_real_llm::decode::lm::CONTEXT;
    if prompt.len() + a.tokens > context {
        fail(format!(
            "{} prompt tokens and {} new ones exceed the model's {context}",
            prompt.len(),
            a.tokens
        ));
    }
    let stop = tok.id("<|im_end|>").expect("the file has <|im_end|>");
    let r = reply(&model, &tok, &prompt, a.tokens, a.choice, stop, |piece| {
        if !a.ids {
            print!("{piece}");
            std::io::stdout().flush().ok();
        }
    });
    if a.ids {
        println!("{:?}", r.ids);
    } else {
        println!();
    }
    eprintln!(
        "prefill {} tokens at {:.0} tokens/s; decode {} tokens at {:.1} tokens/s; on {}",
        r.prompt_tokens,
        r.prompt_tokens as f64 / r.prefill_seconds,
        r.ids.len(),
        r.ids.len() as f64 / r.decode_seconds,
        support::machine::describe()
    );
}

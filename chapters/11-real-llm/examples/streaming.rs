//! StreamingLLM on SmolLM2: the perplexity of 2,048 tokens read through a full cache, a cache of
//! the latest 256 tokens, and one of the first 4 plus the latest 252
//! (`cargo run --release -p ch11-real-llm --example streaming`).

use ch11_real_llm::decode::{Decoder, Weights};
use ch11_real_llm::gguf::Gguf;
use ch11_real_llm::model_file;
use ch11_real_llm::streaming::{self, CACHE_SLOTS};
use ch11_real_llm::tokenizer::Tokenizer;

fn main() {
    let file = Gguf::parse(model_file::read().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    }))
    .unwrap_or_else(|e| panic!("{e}"));
    let ids = streaming::text_ids(&Tokenizer::from_gguf(&file).unwrap());
    let model = Decoder::from_gguf(&file, Weights::Quantized).unwrap();
    println!(
        "| cache | slots | perplexity, all {} tokens | after token {CACHE_SLOTS} |",
        ids.len()
    );
    println!("|---|---:|---:|---:|");
    for (name, policy) in streaming::policies() {
        let nll = streaming::surprise(&model, &ids, policy);
        println!(
            "| {name} | {} | {:.2} | {:.2} |",
            policy.slots(),
            streaming::perplexity_of(&nll),
            streaming::perplexity_of(&nll[CACHE_SLOTS..])
        );
    }
}

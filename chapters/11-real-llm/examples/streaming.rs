//! StreamingLLM on SmolLM2: the perplexity of 2,048 tokens read through a full cache, a cache of
//! the latest 256 tokens, and one of the first 4 plus the latest 252
//! (`cargo run --release -p ch11-real-llm --example streaming`); `--save` writes
//! `measurements/streaming.json`, from which the page's figure is drawn.

use ch11_real_llm::decode::{Decoder, Weights};
use ch11_real_llm::model_file;
use ch11_real_llm::streaming::{self, CACHE_SLOTS};
use ch11_real_llm::tokenizer::Tokenizer;
use support::cli::flag_or_exit;

fn main() {
    let save = flag_or_exit("--save", "usage: streaming [--save]");
    let file = model_file::open_or_exit();
    let ids = streaming::text_ids(&Tokenizer::from_gguf(&file).unwrap());
    let model = Decoder::from_gguf(&file, Weights::Quantized).unwrap();
    let measured = streaming::measure(&model, &ids);
    println!(
        "| cache | slots | perplexity, all {} tokens | after token {CACHE_SLOTS} |",
        ids.len()
    );
    println!("|---|---:|---:|---:|");
    for m in &measured {
        println!("| {} | {} | {:.2} | {:.2} |", m.cache, m.slots, m.perplexity, m.after_cache);
    }
    if save {
        let json = serde_json::to_string_pretty(&measured).expect("serialisable");
        std::fs::write(streaming::committed_path(), json + "\n").expect("written");
        println!("wrote measurements/streaming.json");
    }
}

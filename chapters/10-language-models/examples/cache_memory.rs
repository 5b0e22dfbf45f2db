//! The KV cache of published models for one sequence, per token and at the longest sequence
//! their configuration accepts, in half precision
//! (`cargo run -p ch10-language-models --example cache_memory`).

use ch10_language_models::llama::config::PUBLISHED;
use ch10_language_models::llama::memory::{binary_size, HALF};
use support::params::thousands;

fn main() {
    println!("| model | layers | query heads | key/value heads | head dim | per token | at `max_position_embeddings` |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for m in PUBLISHED {
        let longest = m.max_position_embeddings;
        let full = binary_size(m.cache_bytes(1, longest, HALF));
        let tokens = thousands(longest);
        let context = match m.sliding_window {
            Some(w) => format!("{full} ({tokens} tokens, a window of {})", thousands(w)),
            None => format!("{full} ({tokens} tokens)"),
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            m.name,
            m.num_hidden_layers,
            m.num_attention_heads,
            m.num_key_value_heads,
            m.head_dim,
            binary_size(m.cache_bytes_per_token(HALF)),
            context
        );
    }
}

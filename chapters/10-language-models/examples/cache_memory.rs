//! The KV cache of published models, per token and at their full context, in half precision
//! (`cargo run -p ch10-language-models --example cache_memory`).

use ch10_language_models::memory::{binary_size, HALF, PUBLISHED};
use support::params::thousands;

fn main() {
    println!("| model | layers | query heads | key/value heads | head dim | per token | at full context |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for m in PUBLISHED {
        let full = binary_size(m.bytes_for(m.context, HALF));
        let tokens = thousands(m.context);
        let context = match m.window {
            Some(w) => format!("{full} ({tokens} tokens, a window of {})", thousands(w)),
            None => format!("{full} ({tokens} tokens)"),
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            m.name,
            m.layers,
            m.heads,
            m.kv_heads,
            m.head_dim,
            binary_size(m.bytes_per_token(HALF)),
            context
        );
    }
}

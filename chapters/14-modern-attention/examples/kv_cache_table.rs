//! The KV cache of five published models, computed from their configurations: bytes per token
//! with every layer keeping every token, and the cache after 32,768 tokens.
//!
//! `cargo run -p ch14-modern-attention --example kv_cache_table`

use ch14_modern_attention::cache_cost::table;
use support::cli::{args_or_exit, or_exit};

fn main() {
    if !args_or_exit().is_empty() {
        or_exit::<(), _>(Err("usage: kv_cache_table (no arguments)"));
    }
    print!("{}", table(32_768));
}

//! The committed run of `rolling_cache_speed`: one step of one local layer at Gemma 3 27B's
//! attention sizes after 32,768 tokens, every key held against the rolling buffer.
//!
//! `cargo run -p ch14-modern-attention --example rolling_cache_table`

use ch14_modern_attention::local_global::speed::committed;
use support::cli::{args_or_exit, or_exit};

fn main() {
    if !args_or_exit().is_empty() {
        or_exit::<(), _>(Err("usage: rolling_cache_table (no arguments)"));
    }
    print!("{}", committed().table());
}

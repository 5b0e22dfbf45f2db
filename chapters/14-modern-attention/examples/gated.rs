//! Qwen3-Next's gated attention layers on the chapter's code against Hugging Face's
//! `Qwen3NextAttention` on the committed fixture: the largest differences, whole and cached.
//!
//! `cargo run -p ch14-modern-attention --example gated`

use ch14_modern_attention::gated::fixture;
use support::cli::{args_or_exit, or_exit};

fn main() {
    if !args_or_exit().is_empty() {
        or_exit::<(), _>(Err("usage: gated (no arguments)"));
    }
    println!(
        "40 tokens, 4 query heads over 2 key/value heads; largest |ours - Qwen3NextAttention|:"
    );
    println!("layer  output   weights  cached");
    for layer in [0, 1] {
        let d = fixture::differences(layer);
        println!("{layer:>5}  {:.1e}  {:.1e}  {:.1e}", d.output, d.weights, d.cached);
    }
}

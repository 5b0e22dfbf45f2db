//! Gemma 3's local and global layers on the chapter's code against Hugging Face's
//! `Gemma3ForCausalLM` on the committed fixture: the largest differences, whole and through the
//! cache, and what each layer's cache holds.
//!
//! `cargo run -p ch14-modern-attention --example gemma3`

use ch14_modern_attention::local_global::{fixture, Reach};
use support::cli::{args_or_exit, or_exit};

fn main() {
    if !args_or_exit().is_empty() {
        or_exit::<(), _>(Err("usage: gemma3 (no arguments)"));
    }
    let c = fixture::config();
    let kinds: Vec<&str> =
        c.reaches.iter().map(|r| if *r == Reach::Local { "local" } else { "global" }).collect();
    println!("6 layers: {}; window {} keys", kinds.join(", "), c.window);
    println!(
        "RoPE bases {} (local) and {} (global); scores divided by sqrt({})",
        c.local_theta, c.global_theta, c.query_pre_attn_scalar
    );
    let d = fixture::differences();
    println!("40 tokens; largest |ours - Gemma3ForCausalLM|:");
    println!("  logits {:.1e}, last hidden state {:.1e}", d.logits, d.hidden);
    println!(
        "  attention weights: layer 0 (local) {:.1e}, layer 5 (global) {:.1e}",
        d.local_weights, d.global_weights
    );
    println!("  logits through the cache (24 tokens, then one at a time) {:.1e}", d.cached);
    println!("keys each layer's cache holds after 40 tokens: {:?}", d.held);
}

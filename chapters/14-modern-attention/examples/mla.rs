//! The chapter's DeepSeek-style model against Hugging Face's `DeepseekV3ForCausalLM` on the
//! committed fixture: the largest differences, in both forms of attention.
//!
//! `cargo run -p ch14-modern-attention --example mla`

use ch14_modern_attention::mla::fixture;
use support::cli::{args_or_exit, or_exit};

fn main() {
    if !args_or_exit().is_empty() {
        or_exit::<(), _>(Err("usage: mla (no arguments)"));
    }
    let d = fixture::differences();
    println!("40 tokens, 2 layers, 4 heads; largest |ours - DeepseekV3ForCausalLM|:");
    println!(
        "  whole sequence, plain form: logits {:.1e}, last hidden state {:.1e}",
        d.logits, d.hidden
    );
    println!("  layer 0's attention weights: {:.1e}", d.weights);
    println!("  24 tokens, then 16 one at a time through the latent cache:");
    println!("    keys and values expanded from the latents:  logits {:.1e}", d.cached_expanded);
    println!("    absorbed, the folded matrices multiplied:   logits {:.1e}", d.cached_absorbed);
    println!("    absorbed, the factors applied in turn:      logits {:.1e}", d.cached_in_turn);
    println!("  the same through a cache of expanded keys and values:");
    println!("    each step expands only its own tokens:      logits {:.1e}", d.cached_keys_values);
    println!("  layer 0's cache: latent {:.1e}, shared rotary key {:.1e}", d.latent, d.k_rot);
    println!("  layer 0's latent cache holds {} bytes: (16 + 8) x 4 per token", d.cache_bytes);
    println!(
        "  its keys and values would hold {} bytes: 4 x (16 + 8 + 12) x 4 per token",
        d.kv_cache_bytes
    );
}

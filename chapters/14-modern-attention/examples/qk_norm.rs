//! Qwen3 and OLMo 2 on the chapter's code against Hugging Face's `Qwen3ForCausalLM` and
//! `Olmo2ForCausalLM` on the committed fixtures: the largest differences.
//!
//! `cargo run -p ch14-modern-attention --example qk_norm`

use ch14_modern_attention::qk_norm::{fixture, Family};
use support::cli::{args_or_exit, or_exit};

fn main() {
    if !args_or_exit().is_empty() {
        or_exit::<(), _>(Err("usage: qk_norm (no arguments)"));
    }
    println!(
        "40 tokens, 2 layers, 4 query heads over 2 key/value heads; largest |ours - Hugging Face|:"
    );
    for (family, class) in
        [(Family::Qwen3, "Qwen3ForCausalLM"), (Family::Olmo2, "Olmo2ForCausalLM")]
    {
        let d = fixture::differences(family);
        println!("  {class}: logits {:.1e}, last hidden state {:.1e}", d.logits, d.hidden);
        println!(
            "    layer 0's attention weights {:.1e}, cached logits {:.1e}",
            d.weights, d.cached
        );
    }
}

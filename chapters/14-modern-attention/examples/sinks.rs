//! gpt-oss's attention layers (a window of 8 keys, then every key) on the chapter's code against
//! Hugging Face's `GptOssAttention` on the committed fixture: the largest differences, the
//! window's edge, and what each head gives its learned sink.
//!
//! `cargo run -p ch14-modern-attention --example sinks`

use ch10_language_models::may_attend;
use ch14_modern_attention::sinks::fixture;
use support::cli::{args_or_exit, or_exit};

fn main() {
    if !args_or_exit().is_empty() {
        or_exit::<(), _>(Err("usage: sinks (no arguments)"));
    }
    println!("40 tokens, 4 query heads over 2 key/value heads; largest |ours - GptOssAttention|:");
    println!("layer  keys seen  output   weights  cached   keys held: ours (Hugging Face's)");
    let held = fixture::meta()["config"]["cache_held"].clone();
    for (layer, seen) in [(0, "8"), (1, "all")] {
        let d = fixture::differences(layer);
        println!(
            "{layer:>5}  {seen:>9}  {:.1e}  {:.1e}  {:.1e}  {} ({})",
            d.output, d.weights, d.cached, d.held, held[layer]
        );
    }
    let seen: Vec<usize> = (0..40).filter(|&n| may_attend(20, n, Some(8))).collect();
    println!(
        "with a window of 8, the query at 20 sees keys {}..={}",
        seen[0],
        seen[seen.len() - 1]
    );
    println!("\nthe last query's weight given to the sink (the rest goes to the keys):");
    println!("head  sink logits (layer 0, 1)  share: layer 0 (8 keys)  layer 1 (40 keys)");
    let ((sinks0, local), (sinks1, full)) =
        (fixture::last_query_shares(0), fixture::last_query_shares(1));
    for h in 0..4 {
        let logits = format!("{:.2}, {:.2}", sinks0[h], sinks1[h]);
        println!("{h:>4}  {logits:>24}  {:>23.3}  {:>17.3}", local[h], full[h]);
    }
}

//! The causal mask of 5 tokens in both polarities, printed as 0 and 1 like `mask.int()`:
//! `cargo run -p ch06-masks --example causal_masks`.
use ch06_masks::{causal_allowed, causal_blocked, format01, rows01};

fn main() {
    let dev = support::Dev::default();
    // ANCHOR: causal
    let blocked = causal_blocked(&dev, 5); // nn.MultiheadAttention's attn_mask: true = blocked
    println!("Causal mask (1 = blocked):");
    println!("{}", format01(&blocked.rows01()));
    let allowed = causal_allowed(&dev, 5); // the book's convention: true = may attend
    println!("Causal mask (1 = may attend):");
    println!("{}", format01(&rows01(&allowed)));
    // ANCHOR_END: causal
}

//! Weightless self-attention on the four-token sentence "The cat sat down".
//!
//! `cargo run -p ch01-attention --example weightless`
use ch01_attention::simple_self_attention;
use ch01_attention::weightless::{tokens, EMBEDDINGS, WORDS};
use dfdx::prelude::*;
use support::fmt::format_tensor;

fn main() {
    let dev = support::Dev::default();

    // ANCHOR: sentence
    let att = simple_self_attention(&tokens(&dev, &EMBEDDINGS));
    println!("Raw attention scores (dot products):\n{}", format_tensor(&att.scores, 3));
    println!("\nAttention weights (after softmax):\n{}", format_tensor(&att.weights, 3));
    let row_sums = att.weights.clone().sum::<_, Axis<1>>();
    println!("Row sums: {}", format_tensor(&row_sums, 4));
    println!("\nContext vectors (output):\n{}", format_tensor(&att.context, 3));
    let w = att.weights.as_vec(); // 4 x 4, row-major: row 1 is "cat"
    println!("\n'{}' attends to '{}' with weight: {:.3}", WORDS[1], WORDS[2], w[4 + 2]);
    println!("'{}' attends to '{}' with weight: {:.3}", WORDS[1], WORDS[3], w[4 + 3]);
    // ANCHOR_END: sentence
}

//! Weightless self-attention: the three-token worked example and the four-token sentence.
//!
//! `cargo run -p ch01-attention --example weightless`
use ch01_attention::simple_self_attention;
use ch01_attention::weightless::{tokens, EMBEDDINGS, WORDS, WORKED_TOKENS};
use dfdx::prelude::*;
use support::fmt::format_tensor;

fn main() {
    let dev = support::Dev::default();

    // ANCHOR: worked
    let x = tokens(&dev, &WORKED_TOKENS);
    let att = simple_self_attention(&x);
    let scores = att.scores.as_vec(); // 3 x 3, row-major
    let weights = att.weights.as_vec();
    let z = att.context.as_vec();
    println!("scores of x1 against x0, x1, x2: {:.2?}", &scores[3..6]);
    println!("weights of x1:                   {:.3?}", &weights[3..6]);
    println!("z1 = {:.3?}", &z[2..4]);
    println!("x0 . x2 = {:.2}", scores[2]);
    // ANCHOR_END: worked

    println!();
    // ANCHOR: sentence
    let x = tokens(&dev, &EMBEDDINGS);
    let att = simple_self_attention(&x);
    println!("Raw attention scores (dot products):\n{}", format_tensor(&att.scores, 3));
    println!("\nAttention weights (after softmax):\n{}", format_tensor(&att.weights, 3));
    let row_sums = att.weights.clone().sum::<_, Axis<1>>();
    println!("Row sums: {}", format_tensor(&row_sums, 4));
    println!("\nContext vectors (output):\n{}", format_tensor(&att.context, 3));
    let w = att.weights.as_vec();
    println!("\n'{}' attends to '{}' with weight: {:.3}", WORDS[1], WORDS[2], w[4 + 2]);
    println!("'{}' attends to '{}' with weight: {:.3}", WORDS[1], WORDS[3], w[4 + 3]);
    // ANCHOR_END: sentence
}

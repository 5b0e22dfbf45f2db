//! The batched attention function on seeded random inputs: shapes and row sums.
//!
//! `cargo run -p ch01-attention --example sdpa`
use ch01_attention::scaled_dot_product_attention;
use dfdx::prelude::*;
use support::fmt::{format_tensor, shape_of};

fn main() {
    let dev = support::Dev::default();

    // ANCHOR: batched
    // batch of 2 sequences, 1 head, 5 tokens, d_k = 16, seeded random values
    let shape = (2, Const::<1>, 5, Const::<16>);
    let q = support::normal_tensor(&dev, 1, shape);
    let k = support::normal_tensor(&dev, 2, shape);
    let v = support::normal_tensor(&dev, 3, shape);
    let (output, weights) = scaled_dot_product_attention(q, k, v, None);
    println!("Output shape:  {}", shape_of(&output));
    println!("Weights shape: {}", shape_of(&weights));
    let sums = weights.sum::<_, Axis<3>>();
    println!("Weights row sums: {}", format_tensor(&sums, 2));
    // ANCHOR_END: batched
}

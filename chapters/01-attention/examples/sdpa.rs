//! The batched, masked attention function: shapes, row sums, masks.
//!
//! `cargo run -p ch01-attention --example sdpa`
use ch01_attention::{attention_with_fill, scaled_dot_product_attention};
use dfdx::prelude::*;
use support::fmt::{format_tensor, shape_of};

fn main() {
    let dev = support::Dev::default();

    // ANCHOR: batched
    // batch of 2 sequences, 1 head, 5 tokens, d_k = 16, seeded random values
    let (batch, seq) = (2, 5);
    let shape = (batch, Const::<1>, seq, Const::<16>);
    let n = batch * seq * 16;
    let q = dev.tensor_from_vec(support::normal_vec(1, n), shape);
    let k = dev.tensor_from_vec(support::normal_vec(2, n), shape);
    let v = dev.tensor_from_vec(support::normal_vec(3, n), shape);
    let (output, weights) = scaled_dot_product_attention(q, k, v, None);
    println!("Output shape:  {}", shape_of(&output));
    println!("Weights shape: {}", shape_of(&weights));
    let sums = weights.clone().sum::<_, Axis<3>>();
    println!("Weights row sums: {}", format_tensor(&sums, 2));
    // ANCHOR_END: batched

    println!();
    // ANCHOR: fully_masked
    // one query, three keys, and a mask that blocks all of them
    let q = dev.tensor_from_vec(vec![1.0, 0.0, 0.5, 0.5], (1, Const::<1>, 1, Const::<4>));
    let kv = dev.tensor_from_vec(vec![0.3; 12], (1, Const::<1>, 3, Const::<4>));
    let blocked = dev.zeros_like(&(1, Const::<1>, 1, 3)).gt(0.5); // all false
    let (_, w) = attention_with_fill(q.clone(), kv.clone(), kv.clone(), Some(&blocked), -1e9);
    println!("fill -1e9: weights {}", format_tensor(&w, 4));
    let (_, w) = attention_with_fill(q, kv.clone(), kv, Some(&blocked), f32::NEG_INFINITY);
    println!("fill -inf: weights {:?}", w.as_vec());
    // ANCHOR_END: fully_masked
}

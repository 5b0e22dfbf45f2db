//! Self-attention and cross-attention with one layer.
//!
//! `cargo run -p ch03-multi-head --example cross`
use ch03_multi_head::{average_heads, Mha64x8};
use dfdx::prelude::*;
use support::fmt::shape_of;

fn main() {
    // ANCHOR: cross
    let dev = support::seeded_device(0);
    let mha = Mha64x8::new(&dev);

    // self-attention: a 10-token source attends to itself
    let encoder_input = support::normal_tensor(&dev, 1, (2, 10, Const::<64>));
    let (self_out, _) = mha.self_attention(encoder_input, None);
    println!("Self-attention output: {}", shape_of(&self_out));

    // cross-attention: 8 decoder tokens ask, 10 encoder tokens answer
    let decoder_state = support::normal_tensor(&dev, 2, (2, 8, Const::<64>));
    let encoder_output = support::normal_tensor(&dev, 3, (2, 10, Const::<64>));
    let (cross_out, cross_w) =
        mha.forward(decoder_state, encoder_output.clone(), encoder_output, None);
    println!("Cross-attention output: {}", shape_of(&cross_out));
    println!("Cross-attention weights per head: {}", shape_of(&cross_w));
    println!("Cross-attention weights: {}", shape_of(&average_heads(cross_w)));
    // ANCHOR_END: cross
}

//! Learnable projections from 3 to 2 dimensions on "The cat sat down", seeded.
//!
//! `cargo run -p ch02-qkv --example learned`
use ch02_qkv::{tokens, Qkv3To2, EMBEDDINGS};
use support::fmt::{format_tensor, shape_of};

fn main() {
    // ANCHOR: learned
    let dev = support::seeded_device(0);
    let attn = Qkv3To2::new(&dev);
    let out = attn.forward(tokens(&dev, &EMBEDDINGS));
    println!("Q shape: {}", shape_of(&out.q));
    println!("K shape: {}", shape_of(&out.k));
    println!("V shape: {}", shape_of(&out.v));
    println!("\nAttention output shape: {}", shape_of(&out.output));
    println!("Attention weights:\n{}", format_tensor(&out.weights, 3));
    // ANCHOR_END: learned
}

//! Token embeddings scaled by sqrt(d_model), plus positions, and what happens past the table.
//!
//! `cargo run -p ch04-positions --example embedding`
use ch04_positions::{LearnedPositions, SinusoidalEncoding, TokenEmbedding};
use dfdx::prelude::*;
use support::fmt::{format_tensor, shape_of};

fn main() {
    // ANCHOR: embedding
    let dev = support::seeded_device(0);
    let embed = TokenEmbedding::<10, 4, _>::new(&dev);
    let ids = dev.tensor_from_vec(vec![1usize, 5, 5, 9], (1, 4));
    let x = embed.try_forward(ids).unwrap();
    println!("embedded {}:\n{}", shape_of(&x), format_tensor(&x, 3));
    // the same word twice gets the same vector; a position table tells the two apart
    let pe = SinusoidalEncoding::<4, _>::new(&dev, 8);
    println!("with positions:\n{}", format_tensor(&pe.forward(x.clone()), 3));
    // ANCHOR_END: embedding

    // ANCHOR: errors
    let long = dev.zeros_like(&(1, 9, Const::<4>));
    println!("\n{}", pe.try_forward(long.clone()).unwrap_err());
    let learned = LearnedPositions::<8, 4, _>::new(&dev);
    println!("{}", learned.try_forward(long).unwrap_err());
    let bad = dev.tensor_from_vec(vec![3usize, 12], (1, 2));
    println!("{}", embed.try_forward(bad).unwrap_err());
    // ANCHOR_END: errors
}

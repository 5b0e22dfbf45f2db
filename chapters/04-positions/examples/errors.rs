//! What happens to a sequence longer than the positional table, and to an unknown token id.
//!
//! `cargo run -p ch04-positions --example errors`
use ch04_positions::{LearnedPositions, SinusoidalEncoding, TokenEmbedding};
use dfdx::prelude::*;

fn main() {
    let dev = support::seeded_device(0);
    // ANCHOR: errors
    let pe = SinusoidalEncoding::<4, _>::new(&dev, 8); // 8 positions
    let long = dev.zeros_like(&(1, 9, Const::<4>)); // 9 tokens
    println!("{}", pe.try_forward(long.clone()).unwrap_err());
    let learned = LearnedPositions::<8, 4, _>::new(&dev);
    println!("{}", learned.try_forward(long).unwrap_err());
    let embed = TokenEmbedding::<10, 4, _>::new(&dev); // ids 0..10
    let bad = dev.tensor_from_vec(vec![3usize, 12], (1, 2));
    println!("{}", embed.try_forward(bad).unwrap_err());
    // ANCHOR_END: errors
}

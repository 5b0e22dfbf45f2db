//! The sinusoidal encoding on a batch of embeddings: shapes and the first dimensions.
//!
//! `cargo run -p ch04-positions --example positions`
use ch04_positions::SinusoidalEncoding;
use dfdx::prelude::*;
use support::fmt::{format_nested, shape_of};

fn main() {
    // ANCHOR: demo
    let dev = support::Dev::default();
    let pe = SinusoidalEncoding::<64, _>::new(&dev, 100);
    // a batch of 1 sequence of 10 embedded tokens
    let tokens = support::normal_tensor(&dev, 0, (1, 10, Const::<64>));
    let encoded = pe.forward(tokens.clone());
    println!("Input shape:  {}", shape_of(&tokens));
    println!("Output shape: {}", shape_of(&encoded));
    let table = pe.table.as_vec();
    println!("\nPosition 0 encoding (first 8 dims): {}", format_nested(&table[..8], &[8], 3));
    println!(
        "Position 9 encoding (first 8 dims): {}",
        format_nested(&table[9 * 64..9 * 64 + 8], &[8], 3)
    );
    // ANCHOR_END: demo
}

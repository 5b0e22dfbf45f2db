//! A padding mask broadcast along the right axes and along the wrong ones:
//! `cargo run -p ch06-masks --example broadcast_axes`.
use ch06_masks::{format01, key_mask, real_tokens_allowed, rows01_of, PAD, SEQUENCES};
use dfdx::prelude::*;

fn main() {
    let dev = support::Dev::default();
    // ANCHOR: broadcast_axes
    // the third sequence, [11, 3, PAD, PAD, PAD, PAD], as a (1, 6) real-token mask
    let real = real_tokens_allowed(&dev, &SEQUENCES[2..], PAD);
    let right = key_mask(real.clone(), Const::<1>, 6); // copies along heads and queries
    let wrong = real.broadcast_like::<_, Axes2<1, 3>>(&(1, Const::<1>, 6, 6)); // heads and keys
    println!("Padding broadcast over the queries (right):");
    println!("{}", format01(&rows01_of(&right, 0, 0)));
    println!("Padding broadcast over the keys (wrong):");
    println!("{}", format01(&rows01_of(&wrong, 0, 0)));
    // ANCHOR_END: broadcast_axes
}

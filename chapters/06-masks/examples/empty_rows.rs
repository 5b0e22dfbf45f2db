//! A left-padded target under the causal mask: two queries with nothing to attend to, and what the
//! -1e9 fill makes of them: `cargo run -p ch06-masks --example empty_rows`.
use ch01_attention::scaled_dot_product_attention;
use ch06_masks::{decoder_self_mask, format01, fully_masked_rows, rows01_of, PAD};
use dfdx::prelude::*;
use support::fmt::format_nested;
use support::normal_tensor;

fn main() {
    let dev = support::Dev::default();
    // ANCHOR: fully_masked
    // a left-padded target: queries 0 and 1 are PAD and may only look at PAD keys
    let left_padded = [[PAD, PAD, 4, 6, 9, 1]];
    let mask = decoder_self_mask(&dev, &left_padded, PAD, Const::<1>);
    println!("Left-padded target {:?}, 1 = may attend:", left_padded[0]);
    println!("{}", format01(&rows01_of(&mask, 0, 0)));
    let empty = fully_masked_rows(&mask);
    println!("Rows with nothing to attend to ([batch, head, query]): {empty:?}");
    let shape = (1, Const::<1>, 6, Const::<4>);
    let (q, k) = (normal_tensor(&dev, 3, shape), normal_tensor(&dev, 4, shape));
    let (_, w) = scaled_dot_product_attention(q, k.clone(), k, Some(&mask));
    println!("Weights of query 0 (-1e9 fill): {}", format_nested(&w.as_vec()[..6], &[6], 4));
    // ANCHOR_END: fully_masked
}

//! Weightless self-attention on the three-token worked example: token 1 step by step.
//!
//! `cargo run -p ch01-attention --example three_tokens`
use ch01_attention::simple_self_attention;
use ch01_attention::weightless::{tokens, WORKED_TOKENS};

fn main() {
    let dev = support::Dev::default();

    // ANCHOR: worked
    let att = simple_self_attention(&tokens(&dev, &WORKED_TOKENS));
    let scores = att.scores.as_vec(); // 3 x 3, row-major: row i is token i
    let weights = att.weights.as_vec();
    let z = att.context.as_vec(); // 3 x 2
    println!("scores of x1 against x0, x1, x2: {:.2?}", &scores[3..6]);
    println!("weights of x1:                   {:.3?}", &weights[3..6]);
    println!("z1 = {:.3?}", &z[2..4]);
    println!("x0 . x2 = {:.2}, yet x0 gives x2 the weight {:.3}", scores[2], weights[2]);
    // ANCHOR_END: worked
}

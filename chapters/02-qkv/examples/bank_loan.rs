//! The "bank loan" worked example, step by step.
//!
//! `cargo run -p ch02-qkv --example bank_loan`
use ch01_attention::simple_self_attention;
use ch02_qkv::{bank_loan, tokens};
use support::fmt::format_tensor;

fn main() {
    let dev = support::Dev::default();
    // ANCHOR: run
    let x = tokens(&dev, &bank_loan::X);
    let out = bank_loan::layer(&dev).forward(x.clone());
    println!("Q =\n{}", format_tensor(&out.q, 2));
    println!("K =\n{}", format_tensor(&out.k, 2));
    println!("V =\n{}", format_tensor(&out.v, 2));
    println!("scaled scores =\n{}", format_tensor(&out.scores, 3));
    println!("weights =\n{}", format_tensor(&out.weights, 2));
    println!("z =\n{}", format_tensor(&out.output, 2));

    // without projections the scores are the embeddings' own dot products
    let shared = simple_self_attention(&x).scores.as_vec();
    println!("x0.x0 = {:.2}, x0.x1 = {:.2}", shared[0], shared[1]);
    // ANCHOR_END: run
}

//! A query whose keys are all masked, with three fill values: -1e9, -1e10 and -inf.
//!
//! `cargo run -p ch01-attention --example fully_masked`
use ch01_attention::attention_with_fill;
use dfdx::prelude::*;
use support::fmt::format_tensor;

fn main() {
    let dev = support::Dev::default();

    // ANCHOR: fully_masked
    // one query, three keys, and a mask that blocks all of them
    let q = dev.tensor_from_vec(vec![1.0, 0.0, 0.5, 0.5], (1, Const::<1>, 1, Const::<4>));
    let kv = dev.tensor_from_vec(vec![0.3; 12], (1, Const::<1>, 3, Const::<4>));
    let blocked = dev.zeros_like(&(1, Const::<1>, 1, 3)).gt(0.5); // all false
    for (name, fill) in [("-1e9", -1e9), ("-1e10", -1e10), ("-inf", f32::NEG_INFINITY)] {
        let (_, w) = attention_with_fill(q.clone(), kv.clone(), kv.clone(), Some(&blocked), fill);
        println!("fill {name:>5}: weights {}", format_tensor(&w, 4));
    }
    // ANCHOR_END: fully_masked
}

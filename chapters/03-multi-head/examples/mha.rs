//! The from-scratch layer on the seed's demo input: shapes and parameter count.
//!
//! `cargo run -p ch03-multi-head --example mha`
use ch03_multi_head::MultiHeadAttention;
use dfdx::nn::NumParams;
use dfdx::prelude::*;
use support::fmt::shape_of;

fn main() {
    // ANCHOR: demo
    let dev = support::seeded_device(0);
    let mha = MultiHeadAttention::<64, 8, 8, f32, _>::new(&dev);
    // batch = 2, seq_len = 10, d_model = 64
    let x = dev.tensor_from_vec(support::normal_vec(1, 2 * 10 * 64), (2, 10, Const::<64>));
    let (output, _weights) = mha.self_attention(x.clone(), None); // Q = K = V = x
    println!("Input shape:  {}", shape_of(&x));
    println!("Output shape: {}", shape_of(&output));
    println!("Params: {}", mha.num_trainable_params()); // 4 * 64 * 64 + 4 * 64
                                                        // ANCHOR_END: demo
}

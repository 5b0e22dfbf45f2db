//! The from-scratch layer on the demo input of the PyTorch tutorials: shapes, parameter count,
//! and the first numbers of its output and weights.
//!
//! `cargo run -p ch03-multi-head --example mha`
use ch03_multi_head::Mha64x8;
use dfdx::nn::NumParams;
use dfdx::prelude::*;
use support::fmt::shape_of;

fn main() {
    // ANCHOR: demo
    let dev = support::seeded_device(0);
    let mha = Mha64x8::new(&dev);
    // batch = 2, seq_len = 10, d_model = 64
    let x = support::normal_tensor(&dev, 1, (2, 10, Const::<64>));
    let (output, weights) = mha.self_attention(x.clone(), None); // Q = K = V = x
    println!("Input shape:   {}", shape_of(&x));
    println!("Output shape:  {}", shape_of(&output));
    println!("Weights shape: {}", shape_of(&weights));
    println!("Params: {}", mha.num_trainable_params()); // 4 * 64 * 64 + 4 * 64
    println!("output[0, 0, :4]:     {:.4?}", &output.as_vec()[..4]);
    println!("weights[0, 0, 0, :5]: {:.3?}", &weights.as_vec()[..5]);
    // ANCHOR_END: demo
}

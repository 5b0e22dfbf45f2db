//! dfdx's built-in `MultiHeadAttention`, and the same weights in the from-scratch layer.
//!
//! `cargo run -p ch03-multi-head --example builtin`
use ch03_multi_head::{average_heads, Mha64x8};
use dfdx::nn::{builders, DeviceBuildExt, Module};
use dfdx::prelude::*;
use support::fmt::{format_tensor, shape_of};

fn main() {
    // ANCHOR: builtin
    let dev = support::seeded_device(0);
    let builtin = dev.build_module::<builders::MultiHeadAttention<64, 8>, f32>();
    let x = support::normal_tensor(&dev, 1, (2, 10, Const::<64>));
    // dfdx's layer returns only the output ...
    let out_builtin = builtin.forward((x.clone(), x.clone(), x.clone()));
    // ... so copy its weights into ours to see the attention weights too
    let ours = Mha64x8::from(&builtin);
    let (out, w) = ours.self_attention(x, None);
    let w = average_heads(w); // mean over heads, as PyTorch returns them
    println!("Output shape: {}", shape_of(&out));
    println!("Weights shape: {}", shape_of(&w));
    let w0 = w.as_vec();
    println!("Token 0 attends to all 10 tokens: {:.3?}", &w0[..10]);
    println!("Weights sum per row: {}", format_tensor(&w.sum::<_, Axis<2>>(), 2));
    let diff = support::max_abs_diff(&out.as_vec(), &out_builtin.as_vec());
    // the last bits depend on the CPU's matrix kernels, so compare with a tolerance
    println!("same output as dfdx's layer (within 1e-6): {}", diff < 1e-6);
    // ANCHOR_END: builtin
}

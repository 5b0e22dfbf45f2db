//! The two layer norms of the chapter on x = [1, 2, 3, 4]: `cargo run -p ch05-blocks --example layernorm`.
use ch05_blocks::norm::unbiased_over_biased;
use ch05_blocks::{LayerNorm, StdNorm};
use dfdx::prelude::*;
use support::{format_tensor, Dev};

fn main() {
    // ANCHOR: demo
    let dev = Dev::default();
    let x = dev.tensor_from_vec(vec![1.0f32, 2.0, 3.0, 4.0], (1, 1, Const::<4>));
    let standard = LayerNorm::<4, f32, Dev>::new(&dev).forward(x.clone());
    let std_norm_form = StdNorm::<4, f32, Dev>::new(&dev).forward(x.clone());
    println!("x:                          {}", format_tensor(&x, 4));
    println!("LayerNorm (PyTorch):        {}", format_tensor(&standard, 4));
    println!("unbiased std, eps outside:  {}", format_tensor(&std_norm_form, 4));
    println!("ratio:                      {:.4}", std_norm_form.as_vec()[3] / standard.as_vec()[3]);
    println!("sqrt((d - 1) / d), d = 4:   {:.4}", unbiased_over_biased(4));
    println!("sqrt((d - 1) / d), d = 512: {:.4}", unbiased_over_biased(512));
    // ANCHOR_END: demo
}

//! An encoder block on the demo sizes (d_model 64, 8 heads, d_ff 256):
//! `cargo run -p ch05-blocks --example encoder_block`.
use ch05_blocks::{DemoEncoderBlock, Mode, PreNorm};
use dfdx::nn::NumParams;
use dfdx::prelude::*;
use support::{normal_tensor, seeded_device};

fn main() {
    let dev = seeded_device(0);
    // ANCHOR: encoder
    let encoder_block = DemoEncoderBlock::<PreNorm, _>::new(&dev);
    let x = normal_tensor(&dev, 0, (2, 10, Const::<64>)); // batch 2, 10 tokens
    let (output, _) = encoder_block.forward(x.clone(), None, Mode::Eval);
    println!("Input shape:  {:?}", x.shape().concrete());
    println!("Output shape: {:?}", output.shape().concrete());
    println!("Parameters:   {}", encoder_block.num_trainable_params());
    // ANCHOR_END: encoder
}

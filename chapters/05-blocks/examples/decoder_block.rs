//! A decoder block on the demo sizes (d_model 64, 8 heads, d_ff 256), 8 target tokens over an
//! encoder output of 10: `cargo run -p ch05-blocks --example decoder_block`.
use ch01_attention::{broadcast_mask, causal_allowed};
use ch05_blocks::{DemoDecoderBlock, Mode, PreNorm};
use dfdx::nn::NumParams;
use dfdx::prelude::*;
use support::{normal_tensor, seeded_device};

fn main() {
    let dev = seeded_device(0);
    // ANCHOR: decoder
    let decoder_block = DemoDecoderBlock::<PreNorm, _>::new(&dev);
    let tgt = normal_tensor(&dev, 1, (2, 8, Const::<64>)); // 8 target tokens
    let encoder_out = normal_tensor(&dev, 2, (2, 10, Const::<64>)); // 10 source tokens
    let causal = broadcast_mask(causal_allowed(&dev, 8), 2, Const::<8>); // true = may attend
    let (output, weights) =
        decoder_block.forward(tgt.clone(), &encoder_out, Some(&causal), None, Mode::Eval);
    println!("Decoder input shape:  {:?}", tgt.shape().concrete());
    println!("Encoder output shape: {:?}", encoder_out.shape().concrete());
    println!("Decoder output shape: {:?}", output.shape().concrete());
    println!("Self-attention:       {:?}", weights.self_attn.shape().concrete());
    println!("Cross-attention:      {:?}", weights.cross_attn.shape().concrete());
    println!("Parameters:           {}", decoder_block.num_trainable_params());
    // ANCHOR_END: decoder
}

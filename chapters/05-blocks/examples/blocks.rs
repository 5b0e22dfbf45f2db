//! Encoder and decoder blocks on the sources' demo sizes: `cargo run -p ch05-blocks --example blocks`.
use ch01_attention::{broadcast_mask, causal_allowed};
use ch05_blocks::{DecoderBlock, EncoderBlock, Mode, PostNorm, PreNorm};
use dfdx::nn::NumParams;
use dfdx::prelude::*;
use support::{normal_vec, seeded_device, Dev};

type Encoder64 = EncoderBlock<64, 8, 8, 256, PreNorm, f32, Dev>;
type Decoder64 = DecoderBlock<64, 8, 8, 256, PreNorm, f32, Dev>;

fn main() {
    let dev = seeded_device(0);

    // ANCHOR: encoder
    let encoder_block = Encoder64::new(&dev);
    let x = dev.tensor_from_vec(normal_vec(0, 2 * 10 * 64), (2, 10, Const::<64>)); // batch 2, 10 tokens
    let (output, _) = encoder_block.forward(x.clone(), None, Mode::Eval);
    println!("Input shape:  {:?}", x.shape().concrete());
    println!("Output shape: {:?}", output.shape().concrete());
    println!("Parameters:   {}", encoder_block.num_trainable_params());
    // ANCHOR_END: encoder

    // ANCHOR: decoder
    let decoder_block = Decoder64::new(&dev);
    let tgt = dev.tensor_from_vec(normal_vec(1, 2 * 8 * 64), (2, 8, Const::<64>)); // 8 target tokens
    let encoder_out = dev.tensor_from_vec(normal_vec(2, 2 * 10 * 64), (2, 10, Const::<64>)); // 10 source tokens
    let causal = broadcast_mask(causal_allowed(&dev, 8), 2, Const::<8>); // true = may attend
    let (output, weights) =
        decoder_block.forward(tgt.clone(), &encoder_out, Some(&causal), None, Mode::Eval);
    println!();
    println!("Decoder input shape:  {:?}", tgt.shape().concrete());
    println!("Encoder output shape: {:?}", encoder_out.shape().concrete());
    println!("Decoder output shape: {:?}", output.shape().concrete());
    println!("Cross-attention:      {:?}", weights.cross_attn.shape().concrete());
    println!("Parameters:           {}", decoder_block.num_trainable_params());
    // ANCHOR_END: decoder

    // the same weights arranged post-norm: same count, another function
    let post = EncoderBlock::<64, 8, 8, 256, PostNorm, f32, Dev> {
        self_attn: encoder_block.self_attn.clone(),
        ffn: encoder_block.ffn.clone(),
        norm1: encoder_block.norm1.clone(),
        norm2: encoder_block.norm2.clone(),
        dropout: encoder_block.dropout,
        placement: std::marker::PhantomData,
    };
    let (pre_out, _) = encoder_block.forward(x.clone(), None, Mode::Eval);
    let (post_out, _) = post.forward(x, None, Mode::Eval);
    let diff = support::max_abs_diff(&pre_out.as_vec(), &post_out.as_vec());
    println!();
    println!("pre-norm vs post-norm, same weights: max |difference| = {diff:.3}");
}

//! The decoder's self-attention mask, causal AND padding, for two targets and 4 heads, and a
//! decoder block that takes it: `cargo run -p ch06-masks --example combined_mask`.
use ch05_blocks::{DecoderBlock, Mode, PostNorm};
use ch06_masks::{
    causal_blocked, decoder_self_mask, format01, padding_blocked, rows01_of, PAD, TARGETS,
};
use dfdx::prelude::*;
use support::{normal_tensor, seeded_device};

fn main() {
    let dev = seeded_device(0);
    // ANCHOR: combined
    println!("Causal mask shape: {:?}", causal_blocked(&dev, 6).tensor().shape().concrete());
    println!(
        "Padding mask shape: {:?}",
        padding_blocked(&dev, &TARGETS, PAD).tensor().shape().concrete()
    );
    let tgt_mask = decoder_self_mask(&dev, &TARGETS, PAD, Const::<4>);
    println!("Combined mask shape: {:?}", tgt_mask.shape().concrete());
    for (b, target) in TARGETS.iter().enumerate() {
        println!("target {target:?}, first head, 1 = may attend:");
        println!("{}", format01(&rows01_of(&tgt_mask, b, 0)));
    }

    // a decoder layer (d_model 32, 4 heads, d_ff 128) over an encoder output of 10 tokens
    let layer = DecoderBlock::<32, 4, 8, 128, PostNorm, f32, _>::new(&dev);
    let tgt_emb = normal_tensor(&dev, 1, (2, 6, Const::<32>));
    let memory = normal_tensor(&dev, 2, (2, 10, Const::<32>));
    let (output, _) = layer.forward(tgt_emb, &memory, Some(&tgt_mask), None, Mode::Eval);
    println!("Decoder output shape: {:?}", output.shape().concrete());
    // ANCHOR_END: combined
}

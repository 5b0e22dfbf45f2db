//! The padding mask of three sequences in both polarities, and multi-head self-attention over the
//! padded batch: `cargo run -p ch06-masks --example padding_masks`.
use ch03_multi_head::MultiHeadAttention;
use ch06_masks::{
    encoder_mask, format01, padding_blocked, real_tokens_allowed, rows01, PAD, SEQUENCES,
};
use dfdx::prelude::*;
use support::{normal_tensor, seeded_device};

fn main() {
    let dev = seeded_device(0);
    // ANCHOR: padding
    println!("Sequences: {SEQUENCES:?}");
    println!("Padding mask (1 = padding, ignore):");
    println!("{}", format01(&padding_blocked(&dev, &SEQUENCES, PAD).rows01()));
    println!("Real tokens (1 = may attend):");
    println!("{}", format01(&rows01(&real_tokens_allowed(&dev, &SEQUENCES, PAD))));

    // multi-head self-attention (d_model 32, 4 heads) over the padded batch
    let mha = MultiHeadAttention::<32, 4, 8, f32, _>::new(&dev);
    let x = normal_tensor(&dev, 0, (3, 6, Const::<32>));
    let mask = encoder_mask(&dev, &SEQUENCES, PAD, Const::<4>); // (3, 4, 6, 6)
    let (output, weights) = mha.self_attention(x, Some(&mask));
    println!("\nOutput shape: {:?}", output.shape().concrete());
    let w = weights.as_vec(); // (3, 4, 6, 6), row-major
    let on_pad = (0..w.len()).filter(|&i| SEQUENCES[i / (4 * 36)][i % 6] == PAD).map(|i| w[i]);
    println!("Largest weight on a PAD key: {}", on_pad.fold(0.0f32, f32::max));
    // ANCHOR_END: padding
}

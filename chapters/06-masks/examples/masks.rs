//! The masks of chapter 6, printed as the PyTorch tutorial's snippets print them:
//! `cargo run -p ch06-masks --example masks`.
use ch03_multi_head::MultiHeadAttention;
use ch05_blocks::{DecoderBlock, Mode, PostNorm};
use ch06_masks::{
    causal_allowed, causal_blocked, decoder_self_mask, encoder_mask, format01, fully_masked_rows,
    key_mask, padding_blocked, real_tokens, rows01, rows01_of, square_subsequent_mask, PAD,
    SEQUENCES, TARGETS,
};
use dfdx::prelude::*;
use support::{format_tensor, normal_vec, seeded_device};

fn main() {
    let dev = seeded_device(0);

    // ANCHOR: causal
    let blocked = causal_blocked(&dev, 5); // PyTorch's attn_mask: true = blocked
    println!("Causal mask (1 = blocked):");
    println!("{}", format01(&blocked.rows01()));
    let allowed = causal_allowed(&dev, 5); // chapter 1's Mask: true = may attend
    println!("Causal mask (1 = may attend):");
    println!("{}", format01(&rows01(&allowed)));
    // ANCHOR_END: causal

    // ANCHOR: additive
    let float_mask = square_subsequent_mask(&dev, 5);
    println!("\nPyTorch causal mask (float):");
    println!("{}", format_tensor(&float_mask, 1));
    // ANCHOR_END: additive

    // ANCHOR: padding
    println!("\nSequences: {SEQUENCES:?}");
    println!("Padding mask (1 = padding, ignore):");
    println!("{}", format01(&padding_blocked(&dev, &SEQUENCES, PAD).rows01()));
    println!("Real tokens (1 = may attend):");
    println!("{}", format01(&rows01(&real_tokens(&dev, &SEQUENCES, PAD))));

    // multi-head self-attention (d_model 32, 4 heads) over the padded batch
    let mha = MultiHeadAttention::<32, 4, 8, f32, _>::new(&dev);
    let x = dev.tensor_from_vec(normal_vec(0, 3 * 6 * 32), (3, 6, Const::<32>));
    let mask = encoder_mask(&dev, &SEQUENCES, PAD, Const::<4>); // (3, 4, 6, 6)
    let (output, weights) = mha.self_attention(x, Some(&mask));
    println!("\nOutput shape: {:?}", output.shape().concrete());
    let w = weights.as_vec(); // (3, 4, 6, 6), row-major
    let on_pad = (0..w.len()).filter(|&i| SEQUENCES[i / (4 * 36)][i % 6] == PAD).map(|i| w[i]);
    println!("Largest weight on a PAD key: {}", on_pad.fold(0.0f32, f32::max));
    // ANCHOR_END: padding

    // ANCHOR: combined
    println!("\nCausal mask shape: {:?}", causal_blocked(&dev, 6).tensor().shape().concrete());
    println!(
        "Padding mask shape: {:?}",
        padding_blocked(&dev, &TARGETS, PAD).tensor().shape().concrete()
    );
    let tgt_mask = decoder_self_mask(&dev, &TARGETS, PAD, Const::<4>);
    println!("Combined mask shape: {:?}", tgt_mask.shape().concrete());
    for (b, target) in TARGETS.iter().enumerate() {
        println!("target {target:?}, head 0, 1 = may attend:");
        println!("{}", format01(&rows01_of(&tgt_mask, b, 0)));
    }

    // a decoder layer (d_model 32, 4 heads, d_ff 128) over an encoder output of 10 tokens
    let layer = DecoderBlock::<32, 4, 8, 128, PostNorm, f32, _>::new(&dev);
    let tgt_emb = dev.tensor_from_vec(normal_vec(1, 2 * 6 * 32), (2, 6, Const::<32>));
    let memory = dev.tensor_from_vec(normal_vec(2, 2 * 10 * 32), (2, 10, Const::<32>));
    let (output, _) = layer.forward(tgt_emb, &memory, Some(&tgt_mask), None, Mode::Eval);
    println!("Decoder output shape: {:?}", output.shape().concrete());
    // ANCHOR_END: combined

    // ANCHOR: broadcast_axes
    // the third sequence, [11, 3, PAD, PAD, PAD, PAD], as a (1, 6) real-token mask
    let real = real_tokens(&dev, &SEQUENCES[2..], PAD);
    let right = key_mask(real.clone(), Const::<1>, 6); // copies along heads and queries
    let wrong = real.broadcast_like::<_, Axes2<1, 3>>(&(1, Const::<1>, 6, 6)); // along heads and keys
    println!("\nPadding broadcast over the queries (right):");
    println!("{}", format01(&rows01_of(&right, 0, 0)));
    println!("Padding broadcast over the keys (wrong):");
    println!("{}", format01(&rows01_of(&wrong, 0, 0)));
    // ANCHOR_END: broadcast_axes

    // ANCHOR: fully_masked
    // a left-padded target: queries 0 and 1 are PAD and may only look at PAD keys
    let left_padded = [[PAD, PAD, 4, 6, 9, 1]];
    let mask = decoder_self_mask(&dev, &left_padded, PAD, Const::<1>);
    println!("\nLeft-padded target {:?}, 1 = may attend:", left_padded[0]);
    println!("{}", format01(&rows01_of(&mask, 0, 0)));
    println!(
        "Rows with nothing to attend to ([batch, head, query]): {:?}",
        fully_masked_rows(&mask)
    );
    let shape = (1, Const::<1>, 6, Const::<4>);
    let q = dev.tensor_from_vec(normal_vec(3, 24), shape);
    let k = dev.tensor_from_vec(normal_vec(4, 24), shape);
    let (_, w) = ch01_attention::scaled_dot_product_attention(q, k.clone(), k, Some(&mask));
    println!(
        "Weights of query 0 (-1e9 fill): {}",
        support::fmt::format_nested(&w.as_vec()[..6], &[6], 4)
    );
    // ANCHOR_END: fully_masked
}

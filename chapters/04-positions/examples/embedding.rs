//! How large scaled token embeddings are next to the positional table, under three
//! initialisations of the embedding table.
//!
//! `cargo run -p ch04-positions --example embedding`
use ch04_positions::{rms, sinusoidal_table, TokenEmbedding};
use dfdx::prelude::*;

fn main() {
    // ANCHOR: scale
    let dev = support::seeded_device(0);
    let table = rms(&sinusoidal_table(200, 128));
    // dfdx's Embedding starts uniform in (-1/sqrt(vocab), 1/sqrt(vocab))
    let mut embed = TokenEmbedding::<1000, 128, _>::new(&dev);
    let dfdx_uniform = embed.output_rms();
    // PyTorch's nn.Embedding starts standard normal, N(0, 1)
    let standard_normal = support::normal_tensor(&dev, 1, (Const::<1000>, Const::<128>));
    embed.embedding.weight = standard_normal.clone();
    let torch_normal = embed.output_rms();
    // fairseq's Transformer starts with N(0, 1/d_model)
    embed.embedding.weight = standard_normal / (128f32).sqrt();
    let unit_variance = embed.output_rms();

    println!("RMS of an entry, vocabulary 1000, d_model 128:");
    println!("positional table (200 positions)              {table:5.2}");
    println!("embedding x sqrt(d_model), table initialised");
    println!("  N(0, 1), PyTorch's nn.Embedding             {torch_normal:5.2}");
    println!("  N(0, 1/d_model)                             {unit_variance:5.2}");
    println!("  U(-1/sqrt(vocab), 1/sqrt(vocab)), dfdx's    {dfdx_uniform:5.2}");
    // ANCHOR_END: scale
}

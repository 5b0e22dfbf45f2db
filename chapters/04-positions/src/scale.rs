//! How large the scaled token embeddings are next to the positional table, under three
//! initialisations of the embedding table (vocabulary 1000, `d_model` 128).

use crate::{rms, sinusoidal_table, TokenEmbedding};
use dfdx::prelude::*;

/// The RMS of one entry: of the positional table, and of `embedding * sqrt(d_model)` for three
/// initial tables.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EmbeddingScale {
    /// the sinusoidal table of 200 positions
    pub positions: f32,
    /// table drawn from N(0, 1), as PyTorch's `nn.Embedding` starts
    pub torch_normal: f32,
    /// table drawn from N(0, 1/d_model), as fairseq's Transformer starts
    pub unit_variance: f32,
    /// dfdx's default, uniform in (-1/sqrt(vocab), 1/sqrt(vocab))
    pub dfdx_uniform: f32,
}

// ANCHOR: scale
/// Measures [`EmbeddingScale`] with tables drawn from `dev`'s seeded generator and
/// `support::normal_tensor(dev, 1, ..)`.
pub fn measure<Dev: Device<f32>>(dev: &Dev) -> EmbeddingScale {
    let positions = rms(&sinusoidal_table(200, 128));
    // dfdx's Embedding starts uniform in (-1/sqrt(vocab), 1/sqrt(vocab))
    let mut embed = TokenEmbedding::<1000, 128, Dev>::new(dev);
    let dfdx_uniform = embed.output_rms();
    // PyTorch's nn.Embedding starts standard normal, N(0, 1)
    let standard_normal = support::normal_tensor(dev, 1, (Const::<1000>, Const::<128>));
    embed.embedding.weight = standard_normal.clone();
    let torch_normal = embed.output_rms();
    // fairseq's Transformer starts with N(0, 1/d_model)
    embed.embedding.weight = standard_normal / (128f32).sqrt();
    let unit_variance = embed.output_rms();
    EmbeddingScale { positions, torch_normal, unit_variance, dfdx_uniform }
}
// ANCHOR_END: scale

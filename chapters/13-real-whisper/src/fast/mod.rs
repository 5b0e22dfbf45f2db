//! The fast path: the same Whisper on plain slices, for speed. It is chapter 12's recipe for an
//! encoder, carried over to an encoder–decoder:
//!
//! * every linear layer, the two convolutions included, is chapter 12's register-blocked matrix
//!   product ([`PackedLinear`], on chapter 8's kernel), with GELU applied while the output is in
//!   the cache; a convolution of width 3 is one product over three neighbouring frames side by
//!   side;
//! * the encoder's attention, 1,500 positions by 1,500, is chapter 8's fast tiled kernel;
//! * the decoder writes one token a step: its self-attention keys and values are kept (chapter
//!   10's cache, as rows), the cross-attention's are projected once, and the logits are one
//!   product with the token table, split in parts that the threads share.
//!
//! The weights are [`Whisper`]'s, rearranged once; the tests hold the two paths to each other.

mod decoder;
mod encoder;

pub use decoder::FastDecoding;

use ch08_efficient::fast::Isa;
use ch12_real_bert::fast::linear::PackedLinear;
use dfdx::prelude::*;

use crate::config::{FF, VOCAB, WIDTH};
use crate::model::Whisper;

/// A layer norm's scale and shift.
type Norm = (Vec<f32>, Vec<f32>);

/// Whisper's layer norms all use PyTorch's default.
const EPS: f32 = 1e-5;

/// The vocabulary's rows per part of the logits' product (a multiple of 32, the widest panel).
const VOCAB_PART: usize = 6_496;

/// One encoder block, packed.
#[derive(Clone, Debug)]
struct EncoderLayer {
    norm1: Norm,
    /// the query, key and value projections as one `384 -> 1152` product
    qkv: PackedLinear,
    out: PackedLinear,
    norm2: Norm,
    ffn1: PackedLinear,
    ffn2: PackedLinear,
}

/// One decoder block, packed.
#[derive(Clone, Debug)]
struct DecoderLayer {
    norm1: Norm,
    qkv: PackedLinear,
    out: PackedLinear,
    norm2: Norm,
    cross_q: PackedLinear,
    /// the cross-attention's key and value projections as one `384 -> 768` product, run once
    cross_kv: PackedLinear,
    cross_out: PackedLinear,
    norm3: Norm,
    ffn1: PackedLinear,
    ffn2: PackedLinear,
}

/// Whisper tiny.en on slices.
#[derive(Clone, Debug)]
pub struct FastWhisper {
    pub isa: Isa,
    /// the convolutions as products over three frames side by side (`3·C -> 384`)
    conv1: PackedLinear,
    conv2: PackedLinear,
    audio_positions: Vec<f32>,
    encoder: Vec<EncoderLayer>,
    encoder_norm: Norm,
    tokens: Vec<f32>,
    text_positions: Vec<f32>,
    decoder: Vec<DecoderLayer>,
    decoder_norm: Norm,
    /// the token table as products of [`VOCAB_PART`] rows each (the last padded with zeros)
    logits: Vec<PackedLinear>,
}

fn linear<const I: usize, const O: usize, Dev: Device<f32>>(
    isa: Isa,
    layers: &[&dfdx::nn::modules::Linear<I, O, f32, Dev>],
) -> PackedLinear {
    let weight: Vec<f32> = layers.iter().flat_map(|l| l.weight.as_vec()).collect();
    let bias: Vec<f32> = layers.iter().flat_map(|l| l.bias.as_vec()).collect();
    PackedLinear::new(isa, &weight, &bias, I)
}

fn norm<Dev: Device<f32>>(n: &ch05_blocks::LayerNorm<WIDTH, f32, Dev>) -> Norm {
    (n.gamma.as_vec(), n.beta.as_vec())
}

/// A convolution's taps side by side: output `o` reads input `k·C + c` with tap `k`'s `[o][c]`.
fn conv<const C: usize, Dev: Device<f32>>(
    isa: Isa,
    c: &crate::model::Conv1d<C, Dev>,
) -> PackedLinear {
    let taps: Vec<Vec<f32>> = c.taps.iter().map(|t| t.as_vec()).collect();
    let weight: Vec<f32> = (0..WIDTH)
        .flat_map(|o| taps.iter().flat_map(move |t| t[o * C..(o + 1) * C].to_vec()))
        .collect();
    PackedLinear::new(isa, &weight, &c.bias.as_vec(), 3 * C)
}

impl FastWhisper {
    /// The weights of `model`, packed for `isa` (usually [`Isa::chosen`]).
    pub fn new<Dev: Device<f32>>(model: &Whisper<Dev>, isa: Isa) -> Self {
        let encoder = (model.encoder.layers.iter())
            .map(|b| {
                let a = &b.self_attn;
                EncoderLayer {
                    norm1: norm(&b.norm1),
                    qkv: linear(isa, &[&a.w_q, &a.w_k, &a.w_v]),
                    out: linear(isa, &[&a.w_o]),
                    norm2: norm(&b.norm2),
                    ffn1: linear(isa, &[&b.ffn.linear1]),
                    ffn2: linear::<FF, WIDTH, Dev>(isa, &[&b.ffn.linear2]),
                }
            })
            .collect();
        let decoder = (model.decoder.layers.iter())
            .map(|b| {
                let (a, c) = (&b.self_attn, &b.cross_attn);
                DecoderLayer {
                    norm1: norm(&b.norm1),
                    qkv: linear(isa, &[&a.w_q, &a.w_k, &a.w_v]),
                    out: linear(isa, &[&a.w_o]),
                    norm2: norm(&b.norm2),
                    cross_q: linear(isa, &[&c.w_q]),
                    cross_kv: linear(isa, &[&c.w_k, &c.w_v]),
                    cross_out: linear(isa, &[&c.w_o]),
                    norm3: norm(&b.norm3),
                    ffn1: linear(isa, &[&b.ffn.linear1]),
                    ffn2: linear::<FF, WIDTH, Dev>(isa, &[&b.ffn.linear2]),
                }
            })
            .collect();
        let tokens = model.tokens.as_vec();
        let logits = (0..VOCAB.div_ceil(VOCAB_PART))
            .map(|p| {
                let mut rows = tokens
                    [p * VOCAB_PART * WIDTH..((p + 1) * VOCAB_PART).min(VOCAB) * WIDTH]
                    .to_vec();
                rows.resize(VOCAB_PART * WIDTH, 0.0);
                PackedLinear::new(isa, &rows, &[0.0; VOCAB_PART], WIDTH)
            })
            .collect();
        FastWhisper {
            isa,
            conv1: conv(isa, &model.conv1),
            conv2: conv(isa, &model.conv2),
            audio_positions: model.audio_positions.as_vec(),
            encoder,
            encoder_norm: norm(&model.encoder_norm),
            tokens,
            text_positions: model.text_positions.as_vec(),
            decoder,
            decoder_norm: norm(&model.decoder_norm),
            logits,
        }
    }
}

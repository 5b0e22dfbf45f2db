//! The fast path: the same BERT on plain slices, for speed. Three things make it fast:
//!
//! * **no padding at all**: the tokens of every text of a batch are rows one after another, and
//!   attention runs per text over its own tokens. That is what the padding mask means: a padded
//!   key gets no weight, so it need not be there (FlashAttention's "variable length" batches);
//! * the linear layers are **register-blocked matrix products** ([`linear`]) on chapter 8's
//!   kernel, with the query, key and value projections fused into one product, and GELU applied
//!   while the output is still in the cache;
//! * attention is **chapter 8's fast kernel** (`ch08_efficient::fast`), one text at a time.
//!
//! The weights are [`MiniLm`]'s, rearranged once; the tests hold the two paths to each other
//! and to sentence-transformers.

pub mod linear;
pub mod ops;

use ch08_efficient::fast::{tiled_on, Isa};
use ch08_efficient::{Full, TILES};
use dfdx::prelude::*;

use crate::bert::MiniLm;
use crate::config::MINILM;
use linear::{PackedLinear, Then};
use ops::{add_and_norm, embed, mean_and_normalize, merge_heads, split_heads};

/// all-MiniLM-L6-v2's sizes (the fast path is written for this one model)
const WIDTH: usize = MINILM.d_model;
const HEADS: usize = MINILM.heads;
const D_K: usize = WIDTH / HEADS;

/// One encoder block's weights, packed.
#[derive(Clone, Debug)]
struct Layer {
    /// the query, key and value projections as one `384 -> 1152` product
    qkv: PackedLinear,
    out: PackedLinear,
    norm1: (Vec<f32>, Vec<f32>),
    ffn1: PackedLinear,
    ffn2: PackedLinear,
    norm2: (Vec<f32>, Vec<f32>),
}

/// all-MiniLM-L6-v2 on slices.
#[derive(Clone, Debug)]
pub struct FastEncoder {
    pub isa: Isa,
    word: Vec<f32>,
    position: Vec<f32>,
    token_type: Vec<f32>,
    norm: (Vec<f32>, Vec<f32>),
    layers: Vec<Layer>,
    eps: f32,
}

impl FastEncoder {
    /// The weights of `model`, packed for `isa` (usually [`Isa::chosen`]).
    pub fn new<Dev: Device<f32>>(model: &MiniLm<Dev>, isa: Isa) -> Self {
        let e = &model.embeddings;
        let pair = |g: &Tensor<(Const<WIDTH>,), f32, Dev>,
                    b: &Tensor<(Const<WIDTH>,), f32, Dev>| {
            (g.as_vec(), b.as_vec())
        };
        let layers = (model.encoder.layers.iter())
            .map(|b| {
                let a = &b.self_attn;
                let weight = [&a.w_q, &a.w_k, &a.w_v].map(|l| l.weight.as_vec()).concat();
                let bias = [&a.w_q, &a.w_k, &a.w_v].map(|l| l.bias.as_vec()).concat();
                let (f1, f2) = (&b.ffn.linear1, &b.ffn.linear2);
                Layer {
                    qkv: PackedLinear::new(isa, &weight, &bias, WIDTH),
                    out: PackedLinear::new(
                        isa,
                        &a.w_o.weight.as_vec(),
                        &a.w_o.bias.as_vec(),
                        WIDTH,
                    ),
                    norm1: pair(&b.norm1.gamma, &b.norm1.beta),
                    ffn1: PackedLinear::new(isa, &f1.weight.as_vec(), &f1.bias.as_vec(), WIDTH),
                    ffn2: PackedLinear::new(
                        isa,
                        &f2.weight.as_vec(),
                        &f2.bias.as_vec(),
                        MINILM.d_ff,
                    ),
                    norm2: pair(&b.norm2.gamma, &b.norm2.beta),
                }
            })
            .collect();
        FastEncoder {
            isa,
            word: e.word.weight.as_vec(),
            position: e.position.weight.as_vec(),
            token_type: e.token_type.weight.as_vec(),
            norm: pair(&e.norm.gamma, &e.norm.beta),
            layers,
            eps: e.norm.eps as f32,
        }
    }

    /// The last block's output for every token of every sequence, rows one after another
    /// (`total tokens × 384`): no padding anywhere.
    // ANCHOR: fast_forward
    pub fn hidden(&self, sequences: &[Vec<usize>]) -> Vec<f32> {
        let tables = (&self.word[..], &self.position[..], &self.token_type[..]);
        let mut x = embed(sequences, tables, (&self.norm.0, &self.norm.1), self.eps);
        for layer in &self.layers {
            let qkv = layer.qkv.forward(&x, Then::Nothing); // rows of [q | k | v]
            let mut context = Vec::with_capacity(x.len());
            let mut start = 0;
            for ids in sequences {
                let rows = &qkv[start * 3 * WIDTH..(start + ids.len()) * 3 * WIDTH];
                let [q, k, v] = [0, 1, 2].map(|part| split_heads(rows, 3, part, HEADS, D_K));
                merge_heads(&tiled_on(self.isa, &q, &k, &v, &Full, TILES), &mut context);
                start += ids.len();
            }
            let attended = layer.out.forward(&context, Then::Nothing);
            add_and_norm(&mut x, &attended, (&layer.norm1.0, &layer.norm1.1), self.eps);
            let hidden = layer.ffn1.forward(&x, Then::Gelu);
            let y = layer.ffn2.forward(&hidden, Then::Nothing);
            add_and_norm(&mut x, &y, (&layer.norm2.0, &layer.norm2.1), self.eps);
        }
        x
    }
    // ANCHOR_END: fast_forward

    /// One sentence embedding (mean over the tokens, length 1) per sequence of ids.
    pub fn embed_ids(&self, sequences: &[Vec<usize>]) -> Vec<Vec<f32>> {
        let lengths: Vec<usize> = sequences.iter().map(Vec::len).collect();
        mean_and_normalize(&self.hidden(sequences), &lengths, WIDTH)
    }
}

//! # Chapter 4 — positional encoding
//!
//! Attention treats its input as a set: permute the tokens and the outputs are permuted the same
//! way, nothing else changes. A Transformer learns word order only because every token embedding
//! gets a vector that depends on its position added to it. This crate has:
//!
//! * [`TokenEmbedding`]: token ids to vectors, scaled by `sqrt(d_model)`;
//! * [`SinusoidalEncoding`]: the fixed sine/cosine table of the original Transformer, computed once
//!   for `max_len` positions;
//! * [`LearnedPositions`]: one trained vector per position, as BERT and GPT do.
//!
//! Errors are explicit: an odd `d_model` does not compile (the table pairs every sine with a
//! cosine), a sequence longer than the table is a [`SequenceTooLong`] error, never a silently
//! truncated or wrapped table, and an id outside the vocabulary is a [`TokenOutOfVocab`] error.
//! See [`shape_errors`].

#[doc = include_str!("shape_errors.md")]
pub mod shape_errors {}

pub mod error;
#[cfg(not(target_arch = "wasm32"))] // figures are drawn natively; `web/` builds without plotting
pub mod figures;
pub mod scale;

use dfdx::nn::modules::Embedding;
use dfdx::nn::{BuildModule, Module};
use dfdx::prelude::*;

pub use error::{SequenceTooLong, TokenOutOfVocab};

/// The sinusoidal table as plain numbers, `max_len * d_model` values, row-major:
/// `PE(pos, 2i) = sin(pos / 10000^(2i/d))`, `PE(pos, 2i+1) = cos(pos / 10000^(2i/d))`.
///
/// # Panics
/// If `d_model` is odd: each sine needs its cosine.
// ANCHOR: table
pub fn sinusoidal_table(max_len: usize, d_model: usize) -> Vec<f32> {
    assert!(
        d_model.is_multiple_of(2),
        "sinusoidal_table: d_model must be even (got {d_model}): each sine needs its cosine"
    );
    let mut pe = vec![0.0f32; max_len * d_model];
    for pos in 0..max_len {
        for i in 0..d_model / 2 {
            // the frequency falls geometrically from 1 to 1/10000 across the dimensions
            let angle = pos as f64 / 10000f64.powf(2.0 * i as f64 / d_model as f64);
            pe[pos * d_model + 2 * i] = angle.sin() as f32;
            pe[pos * d_model + 2 * i + 1] = angle.cos() as f32;
        }
    }
    pe
}
// ANCHOR_END: table

/// The fixed sinusoidal positional encoding for up to `max_len` positions, on the device.
///
/// # Generics
/// - `D_MODEL`: the width of the embeddings it is added to; must be even (checked when the
///   program is compiled).
/// - `Dev`: the dfdx device that holds the table.
///
/// PyTorch has no built-in layer for it; the `PositionalEncoding` module of most PyTorch
/// tutorials (a `register_buffer` table added as `x + pe[:, :x.size(1)]`) is the equivalent.
// ANCHOR: sinusoidal
#[derive(Clone, Debug)]
pub struct SinusoidalEncoding<const D_MODEL: usize, Dev: Device<f32>> {
    /// `(max_len, d_model)`, computed once; never trained.
    pub table: Tensor<(usize, Const<D_MODEL>), f32, Dev>,
}

impl<const D_MODEL: usize, Dev: Device<f32>> SinusoidalEncoding<D_MODEL, Dev> {
    pub fn new(dev: &Dev, max_len: usize) -> Self {
        // evaluated when the program is compiled: the table pairs dimensions 2i and 2i + 1
        const { assert!(D_MODEL.is_multiple_of(2) && D_MODEL > 0, "D_MODEL must be even") };
        let table =
            dev.tensor_from_vec(sinusoidal_table(max_len, D_MODEL), (max_len, Const::<D_MODEL>));
        Self { table }
    }

    pub fn max_len(&self) -> usize {
        self.table.shape().0
    }

    /// `x + PE[..seq]` for `x` of shape `(batch, seq, d_model)`.
    pub fn try_forward<B: Dim, T: Tape<f32, Dev>>(
        &self,
        x: Tensor<(B, usize, Const<D_MODEL>), f32, Dev, T>,
    ) -> Result<Tensor<(B, usize, Const<D_MODEL>), f32, Dev, T>, SequenceTooLong> {
        let (b, s, _) = *x.shape();
        if s > self.max_len() {
            return Err(SequenceTooLong { len: s, max_len: self.max_len() });
        }
        // the first `s` rows, the same for every sequence of the batch
        let pe = self.table.clone().slice((0..s, ..)).broadcast_like(&(b, s, Const::<D_MODEL>));
        Ok(x + pe)
    }

    /// [`Self::try_forward`], panicking with the error's message.
    pub fn forward<B: Dim, T: Tape<f32, Dev>>(
        &self,
        x: Tensor<(B, usize, Const<D_MODEL>), f32, Dev, T>,
    ) -> Tensor<(B, usize, Const<D_MODEL>), f32, Dev, T> {
        self.try_forward(x).unwrap_or_else(|e| panic!("{e}"))
    }
}
// ANCHOR_END: sinusoidal

/// Token ids to vectors, multiplied by `sqrt(d_model)` as in the original Transformer.
///
/// # Generics
/// - `VOCAB`: the number of token ids; valid ids are `0..VOCAB`.
/// - `D_MODEL`: the width of each token's vector.
/// - `Dev`: the dfdx device that holds the table.
///
/// PyTorch equivalent: `nn.Embedding(VOCAB, D_MODEL)` followed by `* math.sqrt(D_MODEL)`.
// ANCHOR: token_embedding
#[derive(Clone, Debug)]
pub struct TokenEmbedding<const VOCAB: usize, const D_MODEL: usize, Dev: Device<f32>> {
    pub embedding: Embedding<VOCAB, D_MODEL, f32, Dev>,
}

impl<const VOCAB: usize, const D_MODEL: usize, Dev: Device<f32>>
    TokenEmbedding<VOCAB, D_MODEL, Dev>
{
    pub fn new(dev: &Dev) -> Self {
        Self { embedding: BuildModule::build(dev) }
    }

    /// `(batch, seq)` token ids to `(batch, seq, d_model)` vectors times `sqrt(d_model)`.
    pub fn try_forward<B: Dim, S: Dim>(
        &self,
        ids: Tensor<(B, S), usize, Dev>,
    ) -> Result<Tensor<(B, S, Const<D_MODEL>), f32, Dev>, TokenOutOfVocab> {
        embed_scaled(&self.embedding, ids)
    }

    /// [`Self::try_forward`], panicking with the error's message.
    pub fn forward<B: Dim, S: Dim>(
        &self,
        ids: Tensor<(B, S), usize, Dev>,
    ) -> Tensor<(B, S, Const<D_MODEL>), f32, Dev> {
        self.try_forward(ids).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The root mean square of the scaled vectors of every id: the typical size of an entry of
    /// what this layer hands to the positional encoding.
    pub fn output_rms(&self) -> f32 {
        let dev = self.embedding.weight.device().clone();
        let every_id = dev.tensor_from_vec((0..VOCAB).collect::<Vec<usize>>(), (1, VOCAB));
        rms(&self.forward(every_id).as_vec())
    }
}

/// Looks `ids` up in any embedding table and multiplies by `sqrt(d_model)`, checking every id first.
/// Taped ids give a taped result (that is how dfdx trains an embedding).
pub fn embed_scaled<
    const VOCAB: usize,
    const D_MODEL: usize,
    B: Dim,
    S: Dim,
    Dev: Device<f32>,
    T: Tape<f32, Dev>,
>(
    embedding: &Embedding<VOCAB, D_MODEL, f32, Dev>,
    ids: Tensor<(B, S), usize, Dev, T>,
) -> Result<Tensor<(B, S, Const<D_MODEL>), f32, Dev, T>, TokenOutOfVocab> {
    if let Some(&token) = ids.as_vec().iter().find(|&&t| t >= VOCAB) {
        return Err(TokenOutOfVocab { token, vocab: VOCAB });
    }
    Ok(embedding.forward(ids) * (D_MODEL as f32).sqrt())
}
// ANCHOR_END: token_embedding

/// Learned positional embeddings: one trainable vector per position, at most `MAX_LEN` positions.
///
/// # Generics
/// - `MAX_LEN`: the number of positions it has a vector for.
/// - `D_MODEL`: the width of the embeddings it is added to.
/// - `Dev`: the dfdx device that holds the table.
///
/// PyTorch equivalent: `nn.Embedding(MAX_LEN, D_MODEL)` indexed by `torch.arange(seq)` (BERT's
/// and GPT-2's `position_embeddings` / `wpe`).
// ANCHOR: learned
#[derive(Clone, Debug)]
pub struct LearnedPositions<const MAX_LEN: usize, const D_MODEL: usize, Dev: Device<f32>> {
    pub embedding: Embedding<MAX_LEN, D_MODEL, f32, Dev>,
}

impl<const MAX_LEN: usize, const D_MODEL: usize, Dev: Device<f32>>
    LearnedPositions<MAX_LEN, D_MODEL, Dev>
{
    pub fn new(dev: &Dev) -> Self {
        Self { embedding: BuildModule::build(dev) }
    }

    /// `x + P[0..seq]` for `x` of shape `(batch, seq, d_model)`.
    pub fn try_forward<B: Dim>(
        &self,
        x: Tensor<(B, usize, Const<D_MODEL>), f32, Dev>,
    ) -> Result<Tensor<(B, usize, Const<D_MODEL>), f32, Dev>, SequenceTooLong> {
        let (b, s, _) = *x.shape();
        if s > MAX_LEN {
            return Err(SequenceTooLong { len: s, max_len: MAX_LEN });
        }
        let dev = x.device().clone();
        let positions = dev.tensor_from_vec((0..s).collect::<Vec<usize>>(), (s,));
        let p = self.embedding.forward(positions).broadcast_like(&(b, s, Const::<D_MODEL>));
        Ok(x + p)
    }

    /// [`Self::try_forward`], panicking with the error's message.
    pub fn forward<B: Dim>(
        &self,
        x: Tensor<(B, usize, Const<D_MODEL>), f32, Dev>,
    ) -> Tensor<(B, usize, Const<D_MODEL>), f32, Dev> {
        self.try_forward(x).unwrap_or_else(|e| panic!("{e}"))
    }
}
// ANCHOR_END: learned

/// `PE(a) . PE(b)` for two positions of a `d_model`-wide table: it depends only on `b - a`.
pub fn position_dot(table: &[f32], d_model: usize, a: usize, b: usize) -> f32 {
    let (ra, rb) = (&table[a * d_model..][..d_model], &table[b * d_model..][..d_model]);
    ra.iter().zip(rb).map(|(x, y)| x * y).sum()
}

/// `PE(p) . PE(p + k) = sum_i cos(k w_i)` with `w_i = 10000^(-2i/d)`, computed from the formula
/// (in `f64`) rather than from a table.
pub fn offset_similarity(d_model: usize, k: usize) -> f64 {
    (0..d_model / 2)
        .map(|i| (k as f64 / 10000f64.powf(2.0 * i as f64 / d_model as f64)).cos())
        .sum()
}

/// The root mean square of some values, `sqrt(mean(x^2))`: the typical size of an entry.
pub fn rms(values: &[f32]) -> f32 {
    let sum: f64 = values.iter().map(|&v| v as f64 * v as f64).sum();
    (sum / values.len() as f64).sqrt() as f32
}

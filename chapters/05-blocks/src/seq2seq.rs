//! The complete sequence-to-sequence model: token ids in, logits out.

use ch01_attention::Mask;
use ch04_positions::{embed_scaled, SequenceTooLong, SinusoidalEncoding};
use dfdx::nn::modules::{Embedding, Linear};
use dfdx::nn::{BuildModule, Module, ModuleVisitor, ScalarOptions, TensorCollection};
use dfdx::prelude::*;

use crate::block::DecoderWeights;
use crate::dropout::{assert_probability, dropout, Mode, DEFAULT_DROPOUT};
use crate::error::EmbedError;
use crate::placement::Placement;
use crate::stack::{Decoder, Encoder};
use crate::transformer::Seq2SeqMasks;

/// The complete sequence-to-sequence model: token ids in, logits over the target vocabulary out.
///
/// `src ids -> embedding * sqrt(d) + PE -> dropout -> encoder` and
/// `tgt ids -> embedding * sqrt(d) + PE -> dropout -> decoder (over the encoder's output) -> Linear`.
/// Like the PyTorch model it mirrors, the stacks have no final layer norm.
///
/// # Generics
/// - `SV`, `TV`: the source and target vocabulary sizes.
/// - `M`, `H`, `DK`, `F`, `P`, `E`, `Dev`: those of [`EncoderBlock`](crate::EncoderBlock).
/// - `L`: the number of blocks in each stack.
///
/// PyTorch has no single module for it: it is two `nn.Embedding`s scaled by `sqrt(M)`, a
/// sinusoidal `PositionalEncoding`, `nn.TransformerEncoder` and `nn.TransformerDecoder` of `L`
/// layers each, and an `nn.Linear(M, TV)`, as in the model of a common PyTorch tutorial.
// ANCHOR: seq2seq_struct
#[derive(Clone, Debug)]
pub struct Seq2Seq<
    const SV: usize,
    const TV: usize,
    const M: usize,
    const H: usize,
    const DK: usize,
    const F: usize,
    const L: usize,
    P: Placement,
    E: Dtype,
    Dev: Storage<E>,
> {
    pub src_embed: Embedding<SV, M, E, Dev>,
    pub tgt_embed: Embedding<TV, M, E, Dev>,
    pub encoder: Encoder<M, H, DK, F, L, P, E, Dev>,
    pub decoder: Decoder<M, H, DK, F, L, P, E, Dev>,
    /// `d_model -> target vocabulary`
    pub out: Linear<M, TV, E, Dev>,
    /// the longest sequence the positional encoding accepts
    pub max_len: usize,
    /// dropout after adding the positions
    pub dropout: f32,
}
// ANCHOR_END: seq2seq_struct

/// The default `max_len` of [`Seq2Seq`], as in the PyTorch model it mirrors.
pub const DEFAULT_MAX_LEN: usize = 200;

impl<
        const SV: usize,
        const TV: usize,
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        const L: usize,
        P: Placement,
        Dev: Device<f32>,
    > Seq2Seq<SV, TV, M, H, DK, F, L, P, f32, Dev>
{
    pub fn new(dev: &Dev) -> Self {
        BuildModule::build(dev)
    }

    /// Sets every dropout probability of the model: after the positions are added, and in every
    /// block of both stacks.
    ///
    /// # Panics
    /// Unless `0 <= p < 1`.
    pub fn set_dropout(&mut self, p: f32) {
        assert_probability(p);
        self.dropout = p;
        self.encoder.set_dropout(p);
        self.decoder.set_dropout(p);
    }

    /// Token ids `(batch, seq)` to `(batch, seq, d_model)`: scaled embedding + sinusoidal positions.
    fn embed<const V: usize, B: Dim, S: Dim, T: Tape<f32, Dev>>(
        &self,
        table: &Embedding<V, M, f32, Dev>,
        ids: Tensor<(B, S), usize, Dev, T>,
        mode: Mode,
    ) -> Result<Tensor<(B, S, Const<M>), f32, Dev, T>, EmbedError> {
        let (b, s) = *ids.shape();
        let len = s.size();
        if len > self.max_len {
            return Err(SequenceTooLong { len, max_len: self.max_len }.into());
        }
        let dev = ids.device().clone();
        let x = embed_scaled(table, ids)?.reshape_like(&(b, len, Const::<M>));
        // chapter 4's table for exactly `len` positions: cheaper than one attention matmul
        let x = SinusoidalEncoding::<M, Dev>::new(&dev, len).try_forward(x)?;
        Ok(dropout(x.reshape_like(&(b, s, Const::<M>)), self.dropout, mode))
    }

    /// Logits `(batch, tgt_len, tgt_vocab)` for source ids `(batch, src_len)` and target ids
    /// `(batch, tgt_len)`. Errors on an id outside a vocabulary or a sequence longer than `max_len`.
    // ANCHOR: seq2seq_forward
    pub fn try_forward<B: Dim, Ss: Dim, St: Dim, T: Tape<f32, Dev>>(
        &self,
        src: Tensor<(B, Ss), usize, Dev, T>,
        tgt: Tensor<(B, St), usize, Dev, T>,
        masks: Seq2SeqMasks<'_, B, H, Ss, St, Dev>,
        mode: Mode,
    ) -> Result<Tensor<(B, St, Const<TV>), f32, Dev, T>, EmbedError> {
        let src = self.embed(&self.src_embed, src, mode)?;
        let tgt = self.embed(&self.tgt_embed, tgt, mode)?;
        // the encoder's output is the decoder's "memory"; its tape joins the decoder's
        let (memory, enc_tape) = self.encoder.forward(src, masks.src, mode).0.split_tape();
        let (tgt, tgt_tape) = tgt.split_tape();
        let tgt = tgt.put_tape(tgt_tape.merge(enc_tape));
        let (out, _) = self.decoder.forward(tgt, &memory, masks.tgt, masks.memory, mode);
        Ok(self.out.forward(out))
    }
    // ANCHOR_END: seq2seq_forward

    /// [`Seq2Seq::try_forward`] for ids known to be valid.
    ///
    /// # Panics
    /// With the [`EmbedError`]'s message, on an id outside a vocabulary or a sequence longer than
    /// `max_len`.
    pub fn forward<B: Dim, Ss: Dim, St: Dim, T: Tape<f32, Dev>>(
        &self,
        src: Tensor<(B, Ss), usize, Dev, T>,
        tgt: Tensor<(B, St), usize, Dev, T>,
        masks: Seq2SeqMasks<'_, B, H, Ss, St, Dev>,
        mode: Mode,
    ) -> Tensor<(B, St, Const<TV>), f32, Dev, T> {
        self.try_forward(src, tgt, masks, mode).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The encoder half of [`Seq2Seq::try_forward`], for inference: source ids to the encoder's
    /// output (the memory), with every encoder layer's self-attention weights.
    pub fn try_encode<B: Dim, Ss: Dim>(
        &self,
        src: Tensor<(B, Ss), usize, Dev>,
        mask: Option<&Mask<B, Const<H>, Ss, Ss, Dev>>,
    ) -> Result<EncoderOutput<B, M, H, Ss, Dev>, EmbedError> {
        let src = self.embed(&self.src_embed, src, Mode::Eval)?;
        Ok(self.encoder.forward(src, mask, Mode::Eval))
    }

    /// [`Seq2Seq::try_encode`] for ids known to be valid.
    ///
    /// # Panics
    /// With the [`EmbedError`]'s message.
    pub fn encode<B: Dim, Ss: Dim>(
        &self,
        src: Tensor<(B, Ss), usize, Dev>,
        mask: Option<&Mask<B, Const<H>, Ss, Ss, Dev>>,
    ) -> EncoderOutput<B, M, H, Ss, Dev> {
        self.try_encode(src, mask).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The decoder half, for inference: target ids and the memory to logits
    /// `(batch, tgt_len, tgt_vocab)`, with every decoder layer's self- and cross-attention
    /// weights. Generating one token at a time calls this with a longer target each step.
    pub fn try_decode<B: Dim, Ss: Dim, St: Dim>(
        &self,
        tgt: Tensor<(B, St), usize, Dev>,
        memory: &Tensor<(B, Ss, Const<M>), f32, Dev>,
        tgt_mask: Option<&Mask<B, Const<H>, St, St, Dev>>,
        memory_mask: Option<&Mask<B, Const<H>, St, Ss, Dev>>,
    ) -> Result<DecoderOutput<B, TV, H, St, Ss, Dev>, EmbedError> {
        let tgt = self.embed(&self.tgt_embed, tgt, Mode::Eval)?;
        let (out, weights) = self.decoder.forward(tgt, memory, tgt_mask, memory_mask, Mode::Eval);
        Ok((self.out.forward(out), weights))
    }

    /// [`Seq2Seq::try_decode`] for ids known to be valid.
    ///
    /// # Panics
    /// With the [`EmbedError`]'s message.
    pub fn decode<B: Dim, Ss: Dim, St: Dim>(
        &self,
        tgt: Tensor<(B, St), usize, Dev>,
        memory: &Tensor<(B, Ss, Const<M>), f32, Dev>,
        tgt_mask: Option<&Mask<B, Const<H>, St, St, Dev>>,
        memory_mask: Option<&Mask<B, Const<H>, St, Ss, Dev>>,
    ) -> DecoderOutput<B, TV, H, St, Ss, Dev> {
        self.try_decode(tgt, memory, tgt_mask, memory_mask).unwrap_or_else(|e| panic!("{e}"))
    }
}

/// What [`Seq2Seq::try_encode`] returns: the memory `(batch, src_len, d_model)` and each encoder
/// layer's self-attention weights `(batch, heads, src_len, src_len)`.
pub type EncoderOutput<B, const M: usize, const H: usize, Ss, Dev> =
    (Tensor<(B, Ss, Const<M>), f32, Dev>, Vec<Tensor<(B, Const<H>, Ss, Ss), f32, Dev>>);

/// What [`Seq2Seq::try_decode`] returns: the logits `(batch, tgt_len, tgt_vocab)` and each decoder
/// layer's weights.
pub type DecoderOutput<B, const TV: usize, const H: usize, St, Ss, Dev> =
    (Tensor<(B, St, Const<TV>), f32, Dev>, Vec<DecoderWeights<B, H, St, Ss, Dev>>);

impl<
        const SV: usize,
        const TV: usize,
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        const L: usize,
        P: Placement,
        Dev: Device<f32>,
    > TensorCollection<f32, Dev> for Seq2Seq<SV, TV, M, H, DK, F, L, P, f32, Dev>
{
    type To<E2: Dtype, D2: Device<E2>> = Seq2Seq<SV, TV, M, H, DK, F, L, P, E2, D2>;

    fn iter_tensors<V: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut V,
    ) -> Result<Option<Self::To<V::E2, V::D2>>, V::Err> {
        visitor.visit_fields(
            (
                (
                    Self::module("src_embed", |s| &s.src_embed, |s| &mut s.src_embed),
                    Self::module("tgt_embed", |s| &s.tgt_embed, |s| &mut s.tgt_embed),
                ),
                Self::module("encoder", |s| &s.encoder, |s| &mut s.encoder),
                Self::module("decoder", |s| &s.decoder, |s| &mut s.decoder),
                Self::module("out", |s| &s.out, |s| &mut s.out),
                Self::scalar(
                    "max_len",
                    |s| &s.max_len,
                    |s| &mut s.max_len,
                    ScalarOptions::from_default(DEFAULT_MAX_LEN),
                ),
                Self::scalar(
                    "dropout",
                    |s| &s.dropout,
                    |s| &mut s.dropout,
                    ScalarOptions::from_default(DEFAULT_DROPOUT),
                ),
            ),
            |((src_embed, tgt_embed), encoder, decoder, out, max_len, dropout)| Seq2Seq {
                src_embed,
                tgt_embed,
                encoder,
                decoder,
                out,
                max_len,
                dropout,
            },
        )
    }
}

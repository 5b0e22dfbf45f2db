//! What PyTorch's `nn.Transformer` is: an encoder stack and a decoder stack with their final
//! norms, on already-embedded sequences, and the masks it takes.

use ch01_attention::Mask;
use dfdx::nn::{BuildModule, ModuleVisitor, TensorCollection};
use dfdx::prelude::*;

use crate::dropout::Mode;
use crate::norm::LayerNorm;
use crate::placement::Placement;
use crate::stack::{Decoder, Encoder};

/// What PyTorch's `nn.Transformer` is: an encoder stack and a decoder stack, each followed by a
/// final layer norm, and nothing else (no embeddings, no positions, no output projection).
///
/// # Generics
/// - `M`, `H`, `DK`, `F`, `P`, `E`, `Dev`: those of [`EncoderBlock`](crate::EncoderBlock).
/// - `LE`, `LD`: the number of encoder and of decoder blocks.
///
/// PyTorch equivalent: `nn.Transformer(d_model=M, nhead=H, num_encoder_layers=LE,
/// num_decoder_layers=LD, dim_feedforward=F, batch_first=True)`.
// ANCHOR: transformer_struct
#[derive(Clone, Debug)]
pub struct Transformer<
    const M: usize,
    const H: usize,
    const DK: usize,
    const F: usize,
    const LE: usize,
    const LD: usize,
    P: Placement,
    E: Dtype,
    Dev: Storage<E>,
> {
    pub encoder: Encoder<M, H, DK, F, LE, P, E, Dev>,
    pub encoder_norm: LayerNorm<M, E, Dev>,
    pub decoder: Decoder<M, H, DK, F, LD, P, E, Dev>,
    pub decoder_norm: LayerNorm<M, E, Dev>,
}
// ANCHOR_END: transformer_struct

impl<
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        const LE: usize,
        const LD: usize,
        P: Placement,
        Dev: Device<f32>,
    > Transformer<M, H, DK, F, LE, LD, P, f32, Dev>
{
    pub fn new(dev: &Dev) -> Self {
        BuildModule::build(dev)
    }

    /// Sets every dropout probability of both stacks.
    pub fn set_dropout(&mut self, p: f32) {
        self.encoder.set_dropout(p);
        self.decoder.set_dropout(p);
    }

    /// Already-embedded source `(batch, src_len, d_model)` and target `(batch, tgt_len, d_model)`
    /// in, `(batch, tgt_len, d_model)` out; the three masks as in [`Seq2Seq::try_forward`](crate::Seq2Seq::try_forward).
    pub fn forward<B: Dim, Ss: Dim, St: Dim>(
        &self,
        src: Tensor<(B, Ss, Const<M>), f32, Dev>,
        tgt: Tensor<(B, St, Const<M>), f32, Dev>,
        masks: Seq2SeqMasks<'_, B, H, Ss, St, Dev>,
        mode: Mode,
    ) -> Tensor<(B, St, Const<M>), f32, Dev> {
        let memory = self.encoder_norm.forward(self.encoder.forward(src, masks.src, mode).0);
        let out = self.decoder.forward(tgt, &memory, masks.tgt, masks.memory, mode).0;
        self.decoder_norm.forward(out)
    }
}

/// Masks for [`Seq2Seq::try_forward`](crate::Seq2Seq::try_forward) and [`Transformer::forward`]: `true` = may attend, already broadcast to
/// `(batch, heads, q, k)`.
///
/// # Generics
/// `B` (batch), `H` (heads), `Ss` (source length), `St` (target length), `Dev` (device).
pub struct Seq2SeqMasks<'a, B: Dim, const H: usize, Ss: Dim, St: Dim, Dev: Device<f32>> {
    /// encoder self-attention (source padding)
    pub src: Option<&'a Mask<B, Const<H>, Ss, Ss, Dev>>,
    /// decoder self-attention (causal, and target padding)
    pub tgt: Option<&'a Mask<B, Const<H>, St, St, Dev>>,
    /// decoder cross-attention (source padding)
    pub memory: Option<&'a Mask<B, Const<H>, St, Ss, Dev>>,
}

impl<'a, B: Dim, const H: usize, Ss: Dim, St: Dim, Dev: Device<f32>> Default
    for Seq2SeqMasks<'a, B, H, Ss, St, Dev>
{
    fn default() -> Self {
        Self { src: None, tgt: None, memory: None }
    }
}

impl<
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        const LE: usize,
        const LD: usize,
        P: Placement,
        Dev: Device<f32>,
    > TensorCollection<f32, Dev> for Transformer<M, H, DK, F, LE, LD, P, f32, Dev>
{
    type To<E2: Dtype, D2: Device<E2>> = Transformer<M, H, DK, F, LE, LD, P, E2, D2>;

    fn iter_tensors<V: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut V,
    ) -> Result<Option<Self::To<V::E2, V::D2>>, V::Err> {
        visitor.visit_fields(
            (
                Self::module("encoder", |s| &s.encoder, |s| &mut s.encoder),
                Self::module("encoder_norm", |s| &s.encoder_norm, |s| &mut s.encoder_norm),
                Self::module("decoder", |s| &s.decoder, |s| &mut s.decoder),
                Self::module("decoder_norm", |s| &s.decoder_norm, |s| &mut s.decoder_norm),
            ),
            |(encoder, encoder_norm, decoder, decoder_norm)| Transformer {
                encoder,
                encoder_norm,
                decoder,
                decoder_norm,
            },
        )
    }
}

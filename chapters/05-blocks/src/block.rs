//! The encoder and decoder blocks: attention and the feed-forward network in residual sub-layers,
//! pre-norm or post-norm as their [`Placement`] says.

use std::marker::PhantomData;

use ch01_attention::Mask;
use ch03_multi_head::MultiHeadAttention;
use dfdx::nn::{BuildModule, ModuleVisitor, ScalarOptions, TensorCollection};
use dfdx::prelude::*;

use crate::dropout::{assert_probability, Mode, DEFAULT_DROPOUT};
use crate::ffn::FeedForward;
use crate::norm::LayerNorm;
use crate::placement::Placement;

/// Self-attention of a taped `x`: queries carry the tape, keys and values share `x`'s values.
pub fn self_attend<
    B: Dim,
    S: Dim,
    const M: usize,
    const H: usize,
    const DK: usize,
    Dev: Device<f32>,
    T: Tape<f32, Dev>,
>(
    attn: &MultiHeadAttention<M, H, DK, f32, Dev>,
    x: Tensor<(B, S, Const<M>), f32, Dev, T>,
    mask: Option<&Mask<B, Const<H>, S, S, Dev>>,
) -> (Tensor<(B, S, Const<M>), f32, Dev, T>, Tensor<(B, Const<H>, S, S), f32, Dev>) {
    let (x, tape) = x.split_tape();
    attn.forward(x.clone().put_tape(tape), x.clone(), x, mask)
}

/// Self-attention and a feed-forward network, each wrapped in a residual sub-layer.
///
/// # Generics
/// - `M`: `d_model`, the width of every token vector.
/// - `H`: the number of attention heads.
/// - `DK`: the width of one head; `H * DK` must equal `M` (checked when the attention runs).
/// - `F`: `d_ff`, the hidden width of the feed-forward network.
/// - `P`: where the layer norms sit, [`PreNorm`] or [`PostNorm`].
/// - `E`: the element type of the parameters (`f32`).
/// - `Dev`: the dfdx device that holds them.
///
/// PyTorch equivalent: `nn.TransformerEncoderLayer(d_model=M, nhead=H, dim_feedforward=F,
/// batch_first=True, norm_first=...)`, with the same arrangement. The block-level names are
/// PyTorch's (`self_attn`, `norm1`, `norm2`, `dropout`); PyTorch keeps `linear1`/`linear2` at the
/// top level where this block groups them in `ffn`, and its attention fuses the query, key and
/// value projections into one `in_proj_weight` where chapter 3 has `w_q`, `w_k`, `w_v`.
// ANCHOR: encoder_struct
#[derive(Clone, Debug)]
pub struct EncoderBlock<
    const M: usize,
    const H: usize,
    const DK: usize,
    const F: usize,
    P: Placement,
    E: Dtype,
    Dev: Storage<E>,
> {
    pub self_attn: MultiHeadAttention<M, H, DK, E, Dev>,
    pub ffn: FeedForward<M, F, E, Dev>,
    pub norm1: LayerNorm<M, E, Dev>,
    pub norm2: LayerNorm<M, E, Dev>,
    /// dropout on each sub-layer's output before the residual add
    pub dropout: f32,
    pub placement: PhantomData<P>,
}
// ANCHOR_END: encoder_struct

impl<
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        P: Placement,
        Dev: Device<f32>,
    > EncoderBlock<M, H, DK, F, P, f32, Dev>
{
    /// PyTorch-style initialisation; dropout 0.1 everywhere.
    pub fn new(dev: &Dev) -> Self {
        BuildModule::build(dev)
    }

    /// Sets every dropout probability of the block: after each sub-layer and inside the
    /// feed-forward network (PyTorch's `dropout` argument sets them all alike).
    ///
    /// # Panics
    /// Unless `0 <= p < 1`.
    pub fn set_dropout(&mut self, p: f32) {
        assert_probability(p);
        self.dropout = p;
        self.ffn.dropout = p;
    }

    /// `(batch, seq, d_model)` in, the same shape out, plus the self-attention weights
    /// `(batch, heads, seq, seq)`. `mask`: `true` = may attend.
    // ANCHOR: encoder_forward
    pub fn forward<B: Dim, S: Dim, T: Tape<f32, Dev>>(
        &self,
        x: Tensor<(B, S, Const<M>), f32, Dev, T>,
        mask: Option<&Mask<B, Const<H>, S, S, Dev>>,
        mode: Mode,
    ) -> (Tensor<(B, S, Const<M>), f32, Dev, T>, Tensor<(B, Const<H>, S, S), f32, Dev>) {
        let mut weights = None;
        let x = P::residual(x, &self.norm1, self.dropout, mode, |h| {
            let (out, w) = self_attend(&self.self_attn, h, mask);
            weights = Some(w);
            out
        });
        let x = P::residual(x, &self.norm2, self.dropout, mode, |h| self.ffn.forward(h, mode));
        (x, weights.expect("the attention sub-layer ran"))
    }
    // ANCHOR_END: encoder_forward
}

/// The attention weights of one decoder block.
///
/// # Generics
/// - `B`: the batch dimension; `H`: the number of heads.
/// - `Sq`: the target length; `Sk`: the length of the encoder's output (the memory).
/// - `Dev`: the dfdx device.
#[derive(Clone, Debug)]
pub struct DecoderWeights<B: Dim, const H: usize, Sq: Dim, Sk: Dim, Dev: Device<f32>> {
    /// masked self-attention, `(batch, heads, tgt_len, tgt_len)`
    pub self_attn: Tensor<(B, Const<H>, Sq, Sq), f32, Dev>,
    /// cross-attention over the encoder's output, `(batch, heads, tgt_len, src_len)`
    pub cross_attn: Tensor<(B, Const<H>, Sq, Sk), f32, Dev>,
}

/// Masked self-attention, cross-attention over the encoder's output ("memory"), and a feed-forward
/// network, each in a residual sub-layer.
///
/// # Generics
/// The same as [`EncoderBlock`]'s: `M` (`d_model`), `H` (heads), `DK` (width of a head), `F`
/// (`d_ff`), `P` ([`PreNorm`] or [`PostNorm`]), `E` (element type), `Dev` (device).
///
/// PyTorch equivalent: `nn.TransformerDecoderLayer(d_model=M, nhead=H, dim_feedforward=F,
/// batch_first=True, norm_first=...)`, which calls the cross-attention `multihead_attn`.
// ANCHOR: decoder_struct
#[derive(Clone, Debug)]
pub struct DecoderBlock<
    const M: usize,
    const H: usize,
    const DK: usize,
    const F: usize,
    P: Placement,
    E: Dtype,
    Dev: Storage<E>,
> {
    pub self_attn: MultiHeadAttention<M, H, DK, E, Dev>,
    pub cross_attn: MultiHeadAttention<M, H, DK, E, Dev>,
    pub ffn: FeedForward<M, F, E, Dev>,
    pub norm1: LayerNorm<M, E, Dev>,
    pub norm2: LayerNorm<M, E, Dev>,
    pub norm3: LayerNorm<M, E, Dev>,
    pub dropout: f32,
    pub placement: PhantomData<P>,
}
// ANCHOR_END: decoder_struct

impl<
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        P: Placement,
        Dev: Device<f32>,
    > DecoderBlock<M, H, DK, F, P, f32, Dev>
{
    pub fn new(dev: &Dev) -> Self {
        BuildModule::build(dev)
    }

    /// Sets every dropout probability of the block: after each sub-layer and inside the
    /// feed-forward network (PyTorch's `dropout` argument sets them all alike).
    ///
    /// # Panics
    /// Unless `0 <= p < 1`.
    pub fn set_dropout(&mut self, p: f32) {
        assert_probability(p);
        self.dropout = p;
        self.ffn.dropout = p;
    }

    /// `x`: the target so far, `(batch, tgt_len, d_model)`; `memory`: the encoder's output,
    /// `(batch, src_len, d_model)`. `self_mask` is usually causal (and padding); `memory_mask`
    /// usually hides the source's padding.
    // ANCHOR: decoder_forward
    pub fn forward<B: Dim, Sq: Dim, Sk: Dim, T: Tape<f32, Dev>>(
        &self,
        x: Tensor<(B, Sq, Const<M>), f32, Dev, T>,
        memory: &Tensor<(B, Sk, Const<M>), f32, Dev>,
        self_mask: Option<&Mask<B, Const<H>, Sq, Sq, Dev>>,
        memory_mask: Option<&Mask<B, Const<H>, Sq, Sk, Dev>>,
        mode: Mode,
    ) -> (Tensor<(B, Sq, Const<M>), f32, Dev, T>, DecoderWeights<B, H, Sq, Sk, Dev>) {
        let (mut self_w, mut cross_w) = (None, None);
        // 1. masked self-attention over the target
        let x = P::residual(x, &self.norm1, self.dropout, mode, |h| {
            let (out, w) = self_attend(&self.self_attn, h, self_mask);
            self_w = Some(w);
            out
        });
        // 2. cross-attention: queries from the decoder, keys and values from the encoder
        let x = P::residual(x, &self.norm2, self.dropout, mode, |h| {
            let (out, w) = self.cross_attn.forward(h, memory.clone(), memory.clone(), memory_mask);
            cross_w = Some(w);
            out
        });
        // 3. position-wise feed-forward
        let x = P::residual(x, &self.norm3, self.dropout, mode, |h| self.ffn.forward(h, mode));
        let weights =
            DecoderWeights { self_attn: self_w.expect("ran"), cross_attn: cross_w.expect("ran") };
        (x, weights)
    }
    // ANCHOR_END: decoder_forward
}

impl<
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        P: Placement,
        Dev: Device<f32>,
    > TensorCollection<f32, Dev> for EncoderBlock<M, H, DK, F, P, f32, Dev>
{
    type To<E2: Dtype, D2: Device<E2>> = EncoderBlock<M, H, DK, F, P, E2, D2>;

    fn iter_tensors<V: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut V,
    ) -> Result<Option<Self::To<V::E2, V::D2>>, V::Err> {
        visitor.visit_fields(
            (
                Self::module("self_attn", |s| &s.self_attn, |s| &mut s.self_attn),
                Self::module("ffn", |s| &s.ffn, |s| &mut s.ffn),
                Self::module("norm1", |s| &s.norm1, |s| &mut s.norm1),
                Self::module("norm2", |s| &s.norm2, |s| &mut s.norm2),
                Self::scalar(
                    "dropout",
                    |s| &s.dropout,
                    |s| &mut s.dropout,
                    ScalarOptions::from_default(DEFAULT_DROPOUT),
                ),
            ),
            |(self_attn, ffn, norm1, norm2, dropout)| EncoderBlock {
                self_attn,
                ffn,
                norm1,
                norm2,
                dropout,
                placement: PhantomData,
            },
        )
    }
}

impl<
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        P: Placement,
        Dev: Device<f32>,
    > TensorCollection<f32, Dev> for DecoderBlock<M, H, DK, F, P, f32, Dev>
{
    type To<E2: Dtype, D2: Device<E2>> = DecoderBlock<M, H, DK, F, P, E2, D2>;

    fn iter_tensors<V: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut V,
    ) -> Result<Option<Self::To<V::E2, V::D2>>, V::Err> {
        visitor.visit_fields(
            (
                // dfdx's visitor takes tuples of at most six fields: group them
                (
                    Self::module("self_attn", |s| &s.self_attn, |s| &mut s.self_attn),
                    Self::module("cross_attn", |s| &s.cross_attn, |s| &mut s.cross_attn),
                ),
                Self::module("ffn", |s| &s.ffn, |s| &mut s.ffn),
                (
                    Self::module("norm1", |s| &s.norm1, |s| &mut s.norm1),
                    Self::module("norm2", |s| &s.norm2, |s| &mut s.norm2),
                    Self::module("norm3", |s| &s.norm3, |s| &mut s.norm3),
                ),
                Self::scalar(
                    "dropout",
                    |s| &s.dropout,
                    |s| &mut s.dropout,
                    ScalarOptions::from_default(DEFAULT_DROPOUT),
                ),
            ),
            |((self_attn, cross_attn), ffn, (norm1, norm2, norm3), dropout)| DecoderBlock {
                self_attn,
                cross_attn,
                ffn,
                norm1,
                norm2,
                norm3,
                dropout,
                placement: PhantomData,
            },
        )
    }
}

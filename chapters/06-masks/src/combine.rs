//! Full `(batch, heads, queries, keys)` masks for the three attentions of a Transformer: padding
//! broadcast over heads and queries, combined with the causal mask.

use ch01_attention::{broadcast_mask, causal_allowed, Mask};
use ch05_blocks::Seq2SeqMasks;
use dfdx::prelude::*;

use crate::data::{check_batch, check_len};
use crate::padding::real_tokens_allowed;

// ANCHOR: key_mask
/// A `(batch, keys)` "real token" mask as a full attention mask `(batch, heads, queries, keys)`:
/// every query of sequence `b`, in every head, may attend to the real keys of sequence `b`.
///
/// The new axes are 1 (heads) and 2 (queries); the keys stay last. Broadcasting copies nothing.
pub fn key_mask<H: Dim, Dev: Device<f32>>(
    real: Tensor<(usize, usize), bool, Dev>,
    heads: H,
    queries: usize,
) -> Mask<usize, H, usize, usize, Dev> {
    let (batch, keys) = *real.shape();
    real.broadcast_like::<_, Axes2<1, 2>>(&(batch, heads, queries, keys))
}
// ANCHOR_END: key_mask

// ANCHOR: combine
/// The encoder's self-attention mask: every query sees the real tokens of its own sequence.
/// Shape `(batch, heads, len, len)`.
pub fn encoder_mask<H: Dim, Dev: Device<f32>>(
    dev: &Dev,
    src_ids: &[impl AsRef<[usize]>],
    pad: usize,
    heads: H,
) -> Mask<usize, H, usize, usize, Dev> {
    let real = real_tokens_allowed(dev, src_ids, pad);
    let len = real.shape().1;
    key_mask(real, heads, len)
}

/// The decoder's self-attention mask: causal **and** not padding, `(batch, heads, len, len)`.
/// Query `i` of sequence `b` may attend to key `j` when `j <= i` and token `j` of `b` is real.
pub fn decoder_self_mask<H: Dim, Dev: Device<f32>>(
    dev: &Dev,
    tgt_ids: &[impl AsRef<[usize]>],
    pad: usize,
    heads: H,
) -> Mask<usize, H, usize, usize, Dev> {
    let real = real_tokens_allowed(dev, tgt_ids, pad); // (batch, len)
    let (batch, len) = *real.shape();
    // (len, len) -> (batch, heads, len, len)
    let causal = broadcast_mask(causal_allowed(dev, len), batch, heads);
    causal & key_mask(real, heads, len) // both must allow
}

/// The decoder's cross-attention mask: every target position sees the real source tokens of its
/// own sequence. Shape `(batch, heads, tgt_len, src_len)`.
pub fn memory_mask<H: Dim, Dev: Device<f32>>(
    dev: &Dev,
    src_ids: &[impl AsRef<[usize]>],
    pad: usize,
    heads: H,
    tgt_len: usize,
) -> Mask<usize, H, usize, usize, Dev> {
    check_len("memory_mask", tgt_len);
    key_mask(real_tokens_allowed(dev, src_ids, pad), heads, tgt_len)
}
// ANCHOR_END: combine

// ANCHOR: mask_set
/// The three masks of an encoder-decoder model, built from the token ids, ready for chapter 5's
/// [`Seq2Seq`](ch05_blocks::Seq2Seq) with [`MaskSet::as_seq2seq`].
///
/// # Generics
/// - `H`: the number of attention heads the masks are broadcast to.
/// - `Dev`: the dfdx device that holds them.
///
/// PyTorch's `nn.Transformer` takes the same information as six arguments: `src_mask`,
/// `tgt_mask`, `memory_mask` and the three `*_key_padding_mask`s.
pub struct MaskSet<const H: usize, Dev: Device<f32>> {
    /// encoder self-attention: source padding
    pub src: Mask<usize, Const<H>, usize, usize, Dev>,
    /// decoder self-attention: causal and target padding
    pub tgt: Mask<usize, Const<H>, usize, usize, Dev>,
    /// decoder cross-attention: source padding
    pub memory: Mask<usize, Const<H>, usize, usize, Dev>,
}

impl<const H: usize, Dev: Device<f32>> MaskSet<H, Dev> {
    /// # Panics
    /// As [`real_tokens_allowed`], and if source and target batches differ in size.
    pub fn new(
        dev: &Dev,
        src_ids: &[impl AsRef<[usize]>],
        tgt_ids: &[impl AsRef<[usize]>],
        pad: usize,
    ) -> Self {
        assert_eq!(
            src_ids.len(),
            tgt_ids.len(),
            "MaskSet::new: {} source sequences but {} target sequences; \
             every source needs its target",
            src_ids.len(),
            tgt_ids.len()
        );
        let tgt_len = check_batch("MaskSet::new (targets)", tgt_ids);
        Self {
            src: encoder_mask(dev, src_ids, pad, Const),
            tgt: decoder_self_mask(dev, tgt_ids, pad, Const),
            memory: memory_mask(dev, src_ids, pad, Const, tgt_len),
        }
    }

    /// Borrowed as chapter 5's `Seq2SeqMasks`.
    pub fn as_seq2seq(&self) -> Seq2SeqMasks<'_, usize, H, usize, usize, Dev> {
        Seq2SeqMasks { src: Some(&self.src), tgt: Some(&self.tgt), memory: Some(&self.memory) }
    }
}
// ANCHOR_END: mask_set

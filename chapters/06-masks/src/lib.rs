//! # Chapter 6 — masks
//!
//! A mask decides, for every query, which keys it may look at. Two kinds cover almost every use:
//!
//! * the **causal** (look-ahead) mask: position `i` sees positions `0..=i` and nothing later, so a
//!   decoder trained on a whole target sentence cannot peek at the word it must predict;
//! * the **padding** mask: the filler tokens that make the sequences of a batch one length are never
//!   looked at.
//!
//! The idea is simple; the conventions are not. Chapter 1's [`Mask`], and everything built on it,
//! says `true` = **may attend** (`torch.tril`, as in hand-written attention code). PyTorch's
//! `nn.MultiheadAttention` says `true` = **blocked** (`torch.triu(.., diagonal=1)`,
//! `key_padding_mask = ids == pad`), and its float masks are *added* to the scores (`0` or `-inf`).
//! Here a mask in PyTorch's convention has its own type, [`Blocked`], so the two cannot be mixed up
//! without the compiler noticing: see [`conventions`].
//!
//! * causal masks: [`causal_allowed`], [`causal_blocked`];
//! * padding masks from token ids: [`real_tokens`] (`true` = real), [`padding_blocked`]
//!   (`true` = padding);
//! * full `(batch, heads, queries, keys)` masks for the three attentions of a Transformer:
//!   [`encoder_mask`], [`decoder_self_mask`], [`memory_mask`], all three at once in [`MaskSet`];
//! * additive float masks: [`additive`], [`square_subsequent_mask`], [`attention_additive`];
//! * inspection: [`rows01`], [`rows01_of`], [`format01`], [`fully_masked_rows`].
//!
//! Every builder is generic over the dfdx device.

pub mod figures;

#[doc = include_str!("conventions.md")]
pub mod conventions {}

pub use ch01_attention::{causal_allowed, Mask, DEFAULT_MASK_FILL};

use ch01_attention::{broadcast_mask, keys_allowed, scaled_scores};
use ch05_blocks::model::Seq2SeqMasks;
use dfdx::prelude::*;

// ANCHOR: data
/// The PyTorch tutorial's batch of three sequences padded to length 6 (0 = PAD): 4, 6 and 2 real tokens.
pub const SEQUENCES: [[usize; 6]; 3] =
    [[5, 12, 8, 3, 0, 0], [7, 1, 9, 4, 6, 2], [11, 3, 0, 0, 0, 0]];
/// The tutorial's two target sequences for the decoder (0 = PAD): 4 and 6 real tokens.
pub const TARGETS: [[usize; 6]; 2] = [[1, 5, 8, 3, 0, 0], [2, 7, 4, 6, 9, 1]];
/// The padding id of both.
pub const PAD: usize = 0;
// ANCHOR_END: data

// ---------------------------------------------------------------------------------------------
// The two boolean conventions

// ANCHOR: blocked
/// A boolean mask in PyTorch's convention: `true` = **blocked** (`attn_mask` and
/// `key_padding_mask` of `nn.MultiheadAttention`).
///
/// A type of its own, so that it cannot be passed where chapter 1's [`Mask`] (`true` = may attend)
/// is expected: convert it with [`Blocked::to_allowed`].
#[derive(Clone, Debug)]
pub struct Blocked<S: Shape, Dev: Device<f32>>(pub Tensor<S, bool, Dev>);

impl<S: Shape, Dev: Device<f32>> Blocked<S, Dev> {
    /// From a "may attend" mask: every entry flipped.
    pub fn from_allowed(allowed: Tensor<S, bool, Dev>) -> Self {
        Self(!allowed)
    }

    /// To a "may attend" mask (chapter 1's convention): every entry flipped.
    pub fn to_allowed(self) -> Tensor<S, bool, Dev> {
        !self.0
    }
}
// ANCHOR_END: blocked

impl<S: Shape, Dev: Device<f32>> Blocked<S, Dev> {
    /// The `true` = blocked tensor itself.
    pub fn tensor(&self) -> &Tensor<S, bool, Dev> {
        &self.0
    }
}

impl<Dev: Device<f32>> Blocked<(usize, usize), Dev> {
    /// The mask as rows of 0 and 1, 1 = blocked (what PyTorch prints for `mask.int()`).
    pub fn rows01(&self) -> Vec<Vec<u8>> {
        rows01(&self.0)
    }
}

// ---------------------------------------------------------------------------------------------
// Causal masks

fn check_len(what: &str, n: usize) {
    assert!(n > 0, "{what}: a sequence of length 0 has nothing to mask; pass n >= 1");
}

// ANCHOR: causal
/// Chapter 1's [`causal_allowed`] in PyTorch's convention, `true` = **blocked**: the strict upper triangle
/// (`torch.triu(torch.ones(n, n), diagonal=1).bool()`), what `nn.MultiheadAttention` takes as
/// `attn_mask`.
///
/// # Panics
/// If `n == 0`.
pub fn causal_blocked<Dev: Device<f32>>(dev: &Dev, n: usize) -> Blocked<(usize, usize), Dev> {
    check_len("causal_blocked", n);
    // ones strictly above the diagonal (offset 1), zeros on and below it
    Blocked(dev.upper_tri_like(&(n, n), 1.0f32, 1).gt(0.5))
}
// ANCHOR_END: causal

// ---------------------------------------------------------------------------------------------
// Padding masks

/// Checks a batch of token ids: at least one sequence, all of one non-zero length.
fn check_batch(what: &str, ids: &[impl AsRef<[usize]>]) -> usize {
    assert!(!ids.is_empty(), "{what}: the batch is empty; give at least one sequence of token ids");
    let len = ids[0].as_ref().len();
    for (i, seq) in ids.iter().enumerate() {
        let n = seq.as_ref().len();
        assert_eq!(n, len, "{what}: sequence {i} has {n} tokens, sequence 0 has {len}; pad every sequence to one length first");
    }
    assert!(len > 0, "{what}: the sequences are empty; a sequence needs at least one position");
    len
}

// ANCHOR: padding
/// `true` where a token is **real**, `false` where it is `pad`: the keys that may be attended to
/// (chapter 1's convention). Shape `(batch, seq)`.
///
/// `ids` is one slice of token ids per sequence (`Vec<usize>`, `[usize; N]`, `&[usize]`, ...).
///
/// # Panics
/// If the batch is empty, a sequence is empty, or the sequences have different lengths.
pub fn real_tokens<Dev: Device<f32>>(
    dev: &Dev,
    ids: &[impl AsRef<[usize]>],
    pad: usize,
) -> Tensor<(usize, usize), bool, Dev> {
    check_batch("real_tokens", ids);
    let flags: Vec<Vec<bool>> =
        ids.iter().map(|seq| seq.as_ref().iter().map(|&t| t != pad).collect()).collect();
    keys_allowed(dev, &flags) // chapter 1: (batch, seq), true = real
}

/// `true` where a token **is padding**: the tutorial's `sequences == pad_idx`, which is what
/// `nn.MultiheadAttention` expects as `key_padding_mask`. Shape `(batch, seq)`.
///
/// # Panics
/// As [`real_tokens`].
pub fn padding_blocked<Dev: Device<f32>>(
    dev: &Dev,
    ids: &[impl AsRef<[usize]>],
    pad: usize,
) -> Blocked<(usize, usize), Dev> {
    Blocked::from_allowed(real_tokens(dev, ids, pad))
}
// ANCHOR_END: padding

// ---------------------------------------------------------------------------------------------
// Full masks: broadcast over (batch, heads) and combined

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
    let real = real_tokens(dev, src_ids, pad);
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
    let real = real_tokens(dev, tgt_ids, pad); // (batch, len)
    let (batch, len) = *real.shape();
    let causal = broadcast_mask(causal_allowed(dev, len), batch, heads); // (len, len) -> (batch, heads, len, len)
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
    key_mask(real_tokens(dev, src_ids, pad), heads, tgt_len)
}
// ANCHOR_END: combine

// ANCHOR: mask_set
/// The three masks of an encoder-decoder model, built from the token ids, ready for chapter 5's
/// [`Seq2Seq`](ch05_blocks::Seq2Seq) with [`MaskSet::as_seq2seq`].
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
    /// As [`real_tokens`], and if source and target batches differ in size.
    pub fn new(
        dev: &Dev,
        src_ids: &[impl AsRef<[usize]>],
        tgt_ids: &[impl AsRef<[usize]>],
        pad: usize,
    ) -> Self {
        assert_eq!(
            src_ids.len(),
            tgt_ids.len(),
            "MaskSet::new: {} source sequences but {} target sequences; every source needs its target",
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

// ---------------------------------------------------------------------------------------------
// Additive float masks

// ANCHOR: additive
/// A "may attend" mask as an **additive** float mask: `0.0` where allowed, `-inf` where blocked.
/// Adding it to the scores before the softmax masks them.
pub fn additive<S: Shape, Dev: Device<f32>>(allowed: Tensor<S, bool, Dev>) -> Tensor<S, f32, Dev> {
    let dev = allowed.device().clone();
    let shape = *allowed.shape();
    let blocked = dev.tensor(f32::NEG_INFINITY).broadcast_like(&shape);
    allowed.choose(dev.zeros_like(&shape), blocked)
}

/// PyTorch's `nn.Transformer.generate_square_subsequent_mask(n)`: `0.0` on and below the
/// diagonal, `-inf` above it.
///
/// # Panics
/// If `n == 0`.
pub fn square_subsequent_mask<Dev: Device<f32>>(
    dev: &Dev,
    n: usize,
) -> Tensor<(usize, usize), f32, Dev> {
    additive(causal_allowed(dev, n))
}
// ANCHOR_END: additive

// ANCHOR: attention_additive
/// Attention with an additive float mask, `softmax(Q K^T / sqrt(d_k) + A) V`, built on chapter 1's
/// [`scaled_scores`]. Returns `(output, weights)` like chapter 1's
/// `scaled_dot_product_attention`.
///
/// With `-inf` in `A`, a query whose keys are all blocked gets `NaN` weights (chapter 1).
#[allow(clippy::type_complexity)]
pub fn attention_additive<B, H, Sq, Sk, const DK: usize, const DV: usize, Dev, T>(
    q: Tensor<(B, H, Sq, Const<DK>), f32, Dev, T>,
    k: Tensor<(B, H, Sk, Const<DK>), f32, Dev, T>,
    v: Tensor<(B, H, Sk, Const<DV>), f32, Dev, T>,
    mask: &Tensor<(B, H, Sq, Sk), f32, Dev>,
) -> (Tensor<(B, H, Sq, Const<DV>), f32, Dev, T>, Tensor<(B, H, Sq, Sk), f32, Dev>)
where
    B: Dim,
    H: Dim,
    Sq: Dim,
    Sk: Dim,
    Dev: Device<f32>,
    T: Tape<f32, Dev> + Merge<T> + Merge<NoneTape>,
{
    let scores = scaled_scores(q, k) + mask.clone(); // blocked scores become -inf
    let (weights, tape) = scores.softmax::<Axis<3>>().split_tape();
    (weights.clone().put_tape(tape).matmul(v), weights)
}
// ANCHOR_END: attention_additive

// ---------------------------------------------------------------------------------------------
// Looking at masks

// ANCHOR: rows01
/// A 2-D boolean mask as rows of 0 and 1, as PyTorch prints `mask.int()`.
pub fn rows01<Dev: Device<f32>>(mask: &Tensor<(usize, usize), bool, Dev>) -> Vec<Vec<u8>> {
    let (_, cols) = *mask.shape();
    mask.as_vec()
        .chunks(cols.max(1))
        .map(|row| row.iter().map(|&b| u8::from(b)).collect())
        .collect()
}

/// The `(queries, keys)` matrix of sequence `batch` and head `head` of a full mask, as 0/1 rows.
pub fn rows01_of<B: Dim, H: Dim, Sq: Dim, Sk: Dim, Dev: Device<f32>>(
    mask: &Mask<B, H, Sq, Sk, Dev>,
    batch: usize,
    head: usize,
) -> Vec<Vec<u8>> {
    let (b, h, sq, sk) = *mask.shape();
    let (b, h, sq, sk) = (b.size(), h.size(), sq.size(), sk.size());
    assert!(
        batch < b && head < h,
        "rows01_of: (batch {batch}, head {head}) is outside a mask of {b} sequences and {h} heads"
    );
    let all = mask.as_vec();
    let start = (batch * h + head) * sq * sk;
    all[start..start + sq * sk]
        .chunks(sk.max(1))
        .map(|row| row.iter().map(|&x| u8::from(x)).collect())
        .collect()
}

/// Rows of 0 and 1 as text, one row per line: `[[0, 1],\n [0, 0]]`.
pub fn format01(rows: &[Vec<u8>]) -> String {
    let lines: Vec<String> = rows
        .iter()
        .map(|r| format!("[{}]", r.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")))
        .collect();
    format!("[{}]", lines.join(",\n "))
}
// ANCHOR_END: rows01

// ANCHOR: fully_masked_rows
/// Every `[batch, head, query]` whose row of `mask` is all `false`: a query that may attend to no
/// key. Attention has to put its weight *somewhere*; see [`DEFAULT_MASK_FILL`] for what happens.
pub fn fully_masked_rows<B: Dim, H: Dim, Sq: Dim, Sk: Dim, Dev: Device<f32>>(
    mask: &Mask<B, H, Sq, Sk, Dev>,
) -> Vec<[usize; 3]> {
    let (_, h, sq, sk) = *mask.shape();
    let (h, sq, sk) = (h.size(), sq.size(), sk.size());
    let all = mask.as_vec();
    let rows = all.chunks(sk.max(1)).enumerate();
    rows.filter(|(_, row)| row.iter().all(|&allowed| !allowed))
        .map(|(r, _)| [r / (h * sq), (r / sq) % h, r % sq])
        .collect()
}
// ANCHOR_END: fully_masked_rows

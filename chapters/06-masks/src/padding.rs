//! Padding masks from token ids, one entry per token: `(batch, seq)`.

use ch01_attention::keys_allowed;
use dfdx::prelude::*;

use crate::blocked::Blocked;
use crate::data::check_batch;

// ANCHOR: padding
/// `true` where a token is **real**, `false` where it is `pad`: the keys that may be attended to.
/// Shape `(batch, seq)`.
///
/// `ids` is one slice of token ids per sequence (`Vec<usize>`, `[usize; N]`, `&[usize]`, ...).
///
/// # Panics
/// If the batch is empty, a sequence is empty, or the sequences have different lengths.
pub fn real_tokens_allowed<Dev: Device<f32>>(
    dev: &Dev,
    ids: &[impl AsRef<[usize]>],
    pad: usize,
) -> Tensor<(usize, usize), bool, Dev> {
    check_batch("real_tokens_allowed", ids);
    let flags: Vec<Vec<bool>> =
        ids.iter().map(|seq| seq.as_ref().iter().map(|&t| t != pad).collect()).collect();
    keys_allowed(dev, &flags) // chapter 1: (batch, seq), true = may attend
}

/// `true` where a token **is padding**: `ids == pad`, what `nn.MultiheadAttention` expects as
/// `key_padding_mask`. Shape `(batch, seq)`.
///
/// # Panics
/// As [`real_tokens_allowed`].
pub fn padding_blocked<Dev: Device<f32>>(
    dev: &Dev,
    ids: &[impl AsRef<[usize]>],
    pad: usize,
) -> Blocked<(usize, usize), Dev> {
    Blocked::from_allowed(real_tokens_allowed(dev, ids, pad))
}
// ANCHOR_END: padding

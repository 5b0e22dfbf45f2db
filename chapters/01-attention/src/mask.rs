//! Boolean attention masks. One convention for the whole book: **`true` = may attend**.
//!
//! That is the convention of hand-written attention code (`torch.tril(...)`, `mask == 0` filled)
//! and of `F.scaled_dot_product_attention`'s boolean `attn_mask`; `nn.MultiheadAttention` uses the
//! opposite (`true` = blocked), which chapter 6 gives a type of its own. The builders here say
//! their polarity in their names: [`causal_allowed`], [`keys_allowed`].

use dfdx::prelude::*;

/// A boolean mask over the scores, `true` = "this query may attend to this key".
///
/// It has the full `(batch, heads, queries, keys)` shape; build a small one (for example with
/// [`causal_allowed`] or [`keys_allowed`]) and `broadcast_like` it to the scores' shape.
pub type Mask<B, H, Sq, Sk, Dev> = Tensor<(B, H, Sq, Sk), bool, Dev>;

/// The look-ahead mask of length `n`, `true` = may attend: query `i` may see keys `0..=i`
/// (`torch.tril(torch.ones(n, n)).bool()`). Shape `(n, n)`.
///
/// # Panics
/// If `n == 0`: a sequence of length 0 has nothing to mask.
// ANCHOR: causal_allowed
pub fn causal_allowed<Dev: Device<f32>>(dev: &Dev, n: usize) -> Tensor<(usize, usize), bool, Dev> {
    assert!(n > 0, "causal_allowed: a sequence of length 0 has nothing to mask; pass n >= 1");
    // ones on and below the diagonal, zeros above it; then "> 0.5" turns them into booleans
    dev.lower_tri_like(&(n, n), 1.0f32, 0).gt(0.5)
}
// ANCHOR_END: causal_allowed

/// A `(batch, keys)` mask, `true` = may attend: `allowed[b][j]` says whether the queries of
/// sequence `b` may look at its key `j` (typically: `j` is a real token, not padding). The
/// opposite of the flags PyTorch's `key_padding_mask` argument takes.
///
/// # Panics
/// If no sequence is given or the rows have different lengths.
pub fn keys_allowed<Dev: Device<f32>>(
    dev: &Dev,
    allowed: &[Vec<bool>],
) -> Tensor<(usize, usize), bool, Dev> {
    let batch = allowed.len();
    assert!(batch > 0, "keys_allowed: no sequences given");
    let n = allowed[0].len();
    for (i, row) in allowed.iter().enumerate() {
        assert_eq!(
            row.len(),
            n,
            "keys_allowed: sequence {i} has {} flags, sequence 0 has {n}; pad them to one length",
            row.len()
        );
    }
    let flat: Vec<f32> = allowed.iter().flatten().map(|&r| if r { 1.0 } else { 0.0 }).collect();
    dev.tensor_from_vec(flat, (batch, n)).gt(0.5)
}

/// Expands a `(queries, keys)` mask, such as [`causal_allowed`], to every sequence and head:
/// `(batch, heads, queries, keys)`. No data is copied; the mask is broadcast.
pub fn broadcast_mask<B: Dim, H: Dim, Sq: Dim, Sk: Dim, Dev: Device<f32>>(
    mask: Tensor<(Sq, Sk), bool, Dev>,
    batch: B,
    heads: H,
) -> Mask<B, H, Sq, Sk, Dev> {
    let (sq, sk) = *mask.shape();
    mask.broadcast_like::<_, Axes2<0, 1>>(&(batch, heads, sq, sk))
}

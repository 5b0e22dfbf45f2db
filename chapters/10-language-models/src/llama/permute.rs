//! Converting query/key projection weights between the two RoPE layouts.
//!
//! A model trained with interleaved pairs (Meta's checkpoints) runs with half-split pairs
//! (Hugging Face's code) only if the rows of its query and key projections are reordered, head by
//! head, so that output feature `2i` of a head becomes feature `i` and `2i + 1` becomes
//! `i + d/2`. Forget it, and every score is computed with the wrong pairs turned together: the
//! model loads without error and produces nonsense. Values need no permutation: they are not
//! rotated.

/// Reorders the rows of a query or key projection weight (`heads * d` rows of `cols` values,
/// PyTorch's `(out, in)` layout) from the interleaved layout to the half-split one: row
/// `2i + t` of each head moves to row `t * d/2 + i`. This is the `permute` of Hugging Face's
/// `convert_llama_weights_to_hf.py`.
///
/// # Panics
/// If the rows do not split into `heads` heads of an even width.
// ANCHOR: interleaved_to_half_split
pub fn interleaved_to_half_split(w: &[f32], heads: usize, cols: usize) -> Vec<f32> {
    let d = head_width(w, heads, cols);
    let mut out = vec![0.0; w.len()];
    for h in 0..heads {
        for i in 0..d / 2 {
            for t in 0..2 {
                let from = h * d + 2 * i + t;
                let to = h * d + t * d / 2 + i;
                out[to * cols..(to + 1) * cols].copy_from_slice(&w[from * cols..(from + 1) * cols]);
            }
        }
    }
    out
}
// ANCHOR_END: interleaved_to_half_split

/// The inverse of [`interleaved_to_half_split`]: half-split rows back to interleaved ones.
pub fn half_split_to_interleaved(w: &[f32], heads: usize, cols: usize) -> Vec<f32> {
    let d = head_width(w, heads, cols);
    let mut out = vec![0.0; w.len()];
    for h in 0..heads {
        for i in 0..d / 2 {
            for t in 0..2 {
                let from = h * d + t * d / 2 + i;
                let to = h * d + 2 * i + t;
                out[to * cols..(to + 1) * cols].copy_from_slice(&w[from * cols..(from + 1) * cols]);
            }
        }
    }
    out
}

/// The width of one head, `rows / heads`, checked.
fn head_width(w: &[f32], heads: usize, cols: usize) -> usize {
    assert!(heads > 0 && cols > 0, "permute: heads and cols must be positive");
    assert!(
        w.len().is_multiple_of(heads * cols),
        "permute: {} values are not {heads} heads of rows of {cols}",
        w.len()
    );
    let d = w.len() / (heads * cols);
    assert!(d.is_multiple_of(2), "permute: a head of {d} rows cannot be split into pairs");
    d
}

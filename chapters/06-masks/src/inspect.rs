//! Looking at masks: as rows of 0 and 1, and the rows that allow nothing.

use dfdx::prelude::*;

use crate::Mask;

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
/// key. Attention has to put its weight *somewhere*; see
/// [`DEFAULT_MASK_FILL`](crate::DEFAULT_MASK_FILL) for what happens.
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

//! The fast path's row operations on plain slices: layer norm after a residual add, the
//! embeddings, the split into heads and back, and mean pooling.

use ch08_efficient::Heads;

/// `x = LayerNorm(x + y)` for every row of `width` values (biased variance, `eps` inside the
/// square root, as chapter 5's [`LayerNorm`](ch05_blocks::LayerNorm)).
pub fn add_and_norm(x: &mut [f32], y: &[f32], (gamma, beta): (&[f32], &[f32]), eps: f32) {
    let width = gamma.len();
    for (row, add) in x.chunks_exact_mut(width).zip(y.chunks_exact(width)) {
        row.iter_mut().zip(add).for_each(|(a, b)| *a += b);
        norm_row(row, gamma, beta, eps);
    }
}

/// One row normalised in place.
pub fn norm_row(row: &mut [f32], gamma: &[f32], beta: &[f32], eps: f32) {
    let n = row.len() as f32;
    let mean = row.iter().sum::<f32>() / n;
    let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / n;
    let inv = 1.0 / (var + eps).sqrt();
    for ((v, g), b) in row.iter_mut().zip(gamma).zip(beta) {
        *v = (*v - mean) * inv * g + b;
    }
}

/// The rows of `ids` (all sequences, one after another): word + position + token type 0,
/// normalised. `tables` are `(word, position, token_type)`, each `rows × width`.
pub fn embed(
    sequences: &[Vec<usize>],
    (word, position, token_type): (&[f32], &[f32], &[f32]),
    norm: (&[f32], &[f32]),
    eps: f32,
) -> Vec<f32> {
    let width = norm.0.len();
    let mut out = Vec::with_capacity(sequences.iter().map(Vec::len).sum::<usize>() * width);
    for ids in sequences {
        for (i, &id) in ids.iter().enumerate() {
            let start = out.len();
            let (w, p) = (&word[id * width..][..width], &position[i * width..][..width]);
            out.extend(w.iter().zip(p).zip(&token_type[..width]).map(|((a, b), c)| a + b + c));
            norm_row(&mut out[start..], norm.0, norm.1, eps);
        }
    }
    out
}

/// Rows `n × (heads · d)` (one sequence's queries, keys or values, heads side by side) as
/// chapter 8's [`Heads`], `heads × n × d`; `column` picks which of the `parts` blocks of a fused
/// row to take (0, 1, 2 for the query, key and value of a fused `n × 3·width` projection).
pub fn split_heads(rows: &[f32], parts: usize, column: usize, heads: usize, d: usize) -> Heads {
    let width = heads * d;
    let n = rows.len() / (parts * width);
    let mut data = vec![0.0; heads * n * d];
    for (t, row) in rows.chunks_exact(parts * width).enumerate() {
        let part = &row[column * width..][..width];
        for (h, head) in part.chunks_exact(d).enumerate() {
            data[(h * n + t) * d..][..d].copy_from_slice(head);
        }
    }
    Heads::new(heads, n, d, data)
}

/// [`Heads`] back to rows, heads side by side, appended to `out`.
pub fn merge_heads(heads: &Heads, out: &mut Vec<f32>) {
    for t in 0..heads.n {
        for h in 0..heads.heads {
            out.extend_from_slice(&heads.data[(h * heads.n + t) * heads.d..][..heads.d]);
        }
    }
}

/// The mean of each sequence's rows, scaled to length 1 (a zero mean stays zero).
pub fn mean_and_normalize(rows: &[f32], lengths: &[usize], width: usize) -> Vec<Vec<f32>> {
    let mut start = 0;
    lengths
        .iter()
        .map(|&n| {
            let mut mean = vec![0.0f32; width];
            for row in rows[start * width..(start + n) * width].chunks_exact(width) {
                mean.iter_mut().zip(row).for_each(|(m, v)| *m += v);
            }
            start += n;
            mean.iter_mut().for_each(|m| *m /= n.max(1) as f32);
            let length = mean.iter().map(|m| m * m).sum::<f32>().sqrt().max(1e-12);
            mean.iter_mut().for_each(|m| *m /= length);
            mean
        })
        .collect()
}

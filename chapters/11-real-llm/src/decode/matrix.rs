//! A weight matrix as the decode path keeps it: `rows × cols`, each row `f32` or a run of
//! quantized blocks exactly as the GGUF file stores them, multiplied by the activations of a few
//! tokens at a time.

#![allow(unsafe_code)] // the products run through chapter 8's `Isa::run`, which needs the CPU checked

use std::ops::Range;

use ch08_efficient::fast::kernel::{pack_keys, scores};
use ch08_efficient::fast::lanes::Lanes;
use ch08_efficient::fast::{Isa, OnPath};
use rayon::prelude::*;

use super::kernels::{self, BLOCK};
use crate::gguf::{dequantize, TensorType};

/// How a matrix's rows are stored.
#[derive(Clone, Debug)]
pub enum Rows {
    /// `rows × cols` floats, row-major
    F32(Vec<f32>),
    /// `cols / 32` blocks of 20 bytes per row
    Q4_1(Vec<u8>),
    /// `cols / 32` blocks of 34 bytes per row
    Q8_0(Vec<u8>),
}

/// `out = x · Wᵀ`: PyTorch's `nn.Linear` weight layout, `(out_features, in_features)`.
#[derive(Clone, Debug)]
pub struct Matrix {
    pub rows: usize,
    pub cols: usize,
    pub data: Rows,
}

/// Rows per task given to a thread: enough work to be worth sending, small enough to share.
const ROWS_PER_TASK: usize = 64;

impl Matrix {
    /// A matrix of `f32` rows.
    ///
    /// # Panics
    /// If `data` does not hold `rows × cols` values.
    pub fn f32(rows: usize, cols: usize, data: Vec<f32>) -> Matrix {
        assert_eq!(data.len(), rows * cols, "a {rows} x {cols} matrix");
        Matrix { rows, cols, data: Rows::F32(data) }
    }

    /// A matrix of a GGUF tensor's stored bytes; `dequantized` expands it to `f32` first.
    pub fn from_stored(
        kind: TensorType,
        rows: usize,
        cols: usize,
        bytes: &[u8],
        dequantized: bool,
    ) -> Result<Matrix, String> {
        let whole = kind.bytes_of((rows * cols) as u64) as usize;
        if bytes.len() != whole {
            return Err(format!("{} bytes for a {rows} x {cols} {kind:?} matrix", bytes.len()));
        }
        let data = match kind {
            _ if dequantized => Rows::F32(dequantize(kind, bytes)),
            TensorType::F32 | TensorType::F16 => Rows::F32(dequantize(kind, bytes)),
            _ if !cols.is_multiple_of(BLOCK) => {
                return Err(format!("{cols} columns are not whole blocks of {BLOCK}"))
            }
            TensorType::Q4_1 => Rows::Q4_1(bytes.to_vec()),
            TensorType::Q8_0 => Rows::Q8_0(bytes.to_vec()),
        };
        Ok(Matrix { rows, cols, data })
    }

    /// Bytes of weights read for one pass over the matrix.
    pub fn bytes(&self) -> usize {
        match &self.data {
            Rows::F32(w) => std::mem::size_of_val(w.as_slice()),
            Rows::Q4_1(b) | Rows::Q8_0(b) => b.len(),
        }
    }

    /// Row `r` as `f32` (an embedding lookup).
    pub fn row(&self, r: usize) -> Vec<f32> {
        let c = self.cols;
        match &self.data {
            Rows::F32(w) => w[r * c..(r + 1) * c].to_vec(),
            Rows::Q4_1(b) => {
                dequantize(TensorType::Q4_1, &b[r * c / BLOCK * 20..][..c / BLOCK * 20])
            }
            Rows::Q8_0(b) => {
                dequantize(TensorType::Q8_0, &b[r * c / BLOCK * 34..][..c / BLOCK * 34])
            }
        }
    }

    // ANCHOR: apply
    /// `xs` holds `n` tokens of `cols` values; returns their `n × rows` outputs. The rows are
    /// shared among the threads; each weight is read once for all `n` tokens.
    pub fn apply(&self, isa: Isa, xs: &[f32], n: usize) -> Vec<f32> {
        let [out] = apply_each(isa, [self], xs, n);
        out
    }
    // ANCHOR_END: apply
}

// ANCHOR: apply_each
/// Matrices of the same width applied to the same `n` tokens in one parallel pass, their rows
/// shared among the threads together: the threads meet once for all of them (the query, key and
/// value projections; the gate and up projections), not once per matrix. Returns each matrix's
/// `n × rows` outputs.
pub fn apply_each<const K: usize>(
    isa: Isa,
    matrices: [&Matrix; K],
    xs: &[f32],
    n: usize,
) -> [Vec<f32>; K] {
    let cols = matrices[0].cols;
    for m in matrices {
        assert_eq!(m.cols, cols, "matrices applied together share their width");
    }
    assert_eq!(xs.len(), n * cols, "{n} tokens of {cols} values");
    // one token: its sum over each block (the Q4_1 minimum's term); several: the tokens packed
    // once, in panels of 2W, as chapter 8 packs keys
    let (mut x_sums, mut panels) = (Vec::new(), Vec::new());
    if n == 1 {
        x_sums = xs.chunks(BLOCK).map(|b| b.iter().sum()).collect();
    } else {
        let nr = 2 * isa.lanes();
        panels = vec![0f32; n.div_ceil(nr) * nr * cols];
        pack_keys(&mut panels, xs, cols, nr);
    }
    // each matrix's results row after row (`rows × n`), cut into tasks of whole rows
    let mut results = matrices.map(|m| vec![0f32; m.rows * n]);
    let mut tasks = Vec::new();
    for (m, result) in matrices.iter().zip(results.iter_mut()) {
        // several tokens: three strips of rows a task (36 rows for AVX-512)
        let per_task = if n > 1 { 3 * isa.strip_rows() } else { rows_per_task(m.rows) };
        for (t, out) in result.chunks_mut(per_task * n).enumerate() {
            let rows = t * per_task..t * per_task + out.len() / n;
            tasks.push(RowsTimesTokens { m, rows, xs, x_sums: &x_sums, panels: &panels, n, out });
        }
    }
    tasks.into_par_iter().for_each(|task| isa.run(task));
    if n == 1 {
        return results;
    }
    results.map(|by_row| {
        let rows = by_row.len() / n;
        let mut by_token = vec![0f32; by_row.len()];
        for (r, row) in by_row.chunks(n).enumerate() {
            for (t, &v) in row.iter().enumerate() {
                by_token[t * rows + r] = v;
            }
        }
        by_token
    })
}
// ANCHOR_END: apply_each

/// Rows per task for a matrix of `rows` rows: about [`ROWS_PER_TASK`], the tasks a multiple of the
/// threads in number and alike in size, so that no thread waits long for another.
fn rows_per_task(rows: usize) -> usize {
    let threads = rayon::current_num_threads().max(1);
    let tasks = rows.div_ceil(ROWS_PER_TASK).div_ceil(threads) * threads;
    rows.div_ceil(tasks).max(1)
}

/// Some rows of a matrix against every token: `rows.len() × n` results, row after row, into
/// `out`.
struct RowsTimesTokens<'a> {
    m: &'a Matrix,
    rows: Range<usize>,
    xs: &'a [f32],
    x_sums: &'a [f32],
    /// several tokens: `xs` packed in panels of `2W` tokens
    panels: &'a [f32],
    n: usize,
    out: &'a mut [f32],
}

impl OnPath for RowsTimesTokens<'_> {
    type Output = ();

    #[inline(always)]
    unsafe fn run<L: Lanes, const MR: usize>(self) {
        if self.n > 1 {
            return self.blocked::<L, MR>();
        }
        // one token: straight from the stored blocks, row after row
        let (c, xs, sums) = (self.m.cols, self.xs, self.x_sums);
        let blocks = c / BLOCK;
        for (r, out) in self.rows.zip(self.out.iter_mut()) {
            *out = match &self.m.data {
                Rows::F32(w) => kernels::dot_f32::<L>(&w[r * c..(r + 1) * c], xs),
                Rows::Q4_1(b) => {
                    kernels::dot_q4_1::<L>(&b[r * blocks * 20..][..blocks * 20], xs, sums)
                }
                Rows::Q8_0(b) => kernels::dot_q8_0::<L>(&b[r * blocks * 34..][..blocks * 34], xs),
            };
        }
    }
}

impl RowsTimesTokens<'_> {
    // ANCHOR: blocked
    /// Several tokens: chapter 8's score kernel with the weight's rows as the queries and the
    /// tokens as the keys. A strip of `MR` rows is expanded to `f32` once and multiplied with
    /// every panel of `2W` packed tokens, the partial sums in registers; each weight is read
    /// from memory once for all the tokens.
    ///
    /// # Safety
    /// The CPU must have `L`'s instruction set.
    #[inline(always)]
    unsafe fn blocked<L: Lanes, const MR: usize>(self) {
        let (c, n, nr) = (self.m.cols, self.n, 2 * L::W);
        let blocks = c / BLOCK;
        let mut rows = vec![0f32; MR * c];
        let mut strip = [0f32; 16 * 32]; // MR × nr results: MR <= 16, nr <= 32
        for r0 in self.rows.clone().step_by(MR) {
            let present = (self.rows.end - r0).min(MR);
            for (i, row) in rows.chunks_exact_mut(c).take(present).enumerate() {
                let r = r0 + i;
                match &self.m.data {
                    Rows::F32(w) => row.copy_from_slice(&w[r * c..(r + 1) * c]),
                    Rows::Q4_1(b) => {
                        kernels::expand_q4_1::<L>(&b[r * blocks * 20..][..blocks * 20], row)
                    }
                    Rows::Q8_0(b) => {
                        kernels::expand_q8_0::<L>(&b[r * blocks * 34..][..blocks * 34], row)
                    }
                }
            }
            // a short last strip repeats its last row; those results are not kept
            let ws: [&[f32]; MR] = std::array::from_fn(|i| &rows[i.min(present - 1) * c..][..c]);
            let first = r0 - self.rows.start;
            for (p, panel) in self.panels.chunks_exact(c * nr).enumerate() {
                scores::<L, MR>(&ws, panel, 1.0, &mut strip[..MR * nr], nr);
                let tokens = (n - p * nr).min(nr);
                for (i, results) in strip.chunks_exact(nr).take(present).enumerate() {
                    let out = &mut self.out[(first + i) * n + p * nr..][..tokens];
                    out.copy_from_slice(&results[..tokens]);
                }
            }
        }
    }
    // ANCHOR_END: blocked
}

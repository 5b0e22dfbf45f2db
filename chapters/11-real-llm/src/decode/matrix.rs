//! A weight matrix as the decode path keeps it: `rows × cols`, each row `f32` or a run of
//! quantized blocks exactly as the GGUF file stores them, multiplied by the activations of a few
//! tokens at a time.

#![allow(unsafe_code)] // the products run through chapter 8's `Isa::run`, which needs the CPU checked

use std::ops::Range;

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
        assert_eq!(xs.len(), n * self.cols, "{n} tokens of {} values", self.cols);
        let x_sums: Vec<f32> = xs.chunks(BLOCK).map(|b| b.iter().sum()).collect();
        let tasks: Vec<Range<usize>> = (0..self.rows)
            .step_by(ROWS_PER_TASK)
            .map(|r| r..(r + ROWS_PER_TASK).min(self.rows))
            .collect();
        let parts: Vec<Vec<f32>> = tasks
            .into_par_iter()
            .map(|rows| isa.run(RowsTimesTokens { m: self, rows, xs, x_sums: &x_sums, n }))
            .collect();
        let mut out = vec![0f32; n * self.rows];
        for (task, part) in parts.iter().enumerate() {
            let first = task * ROWS_PER_TASK;
            for (i, row) in part.chunks(n).enumerate() {
                for (t, &v) in row.iter().enumerate() {
                    out[t * self.rows + first + i] = v;
                }
            }
        }
        out
    }
    // ANCHOR_END: apply
}

/// Some rows of a matrix against every token: `rows.len() × n` results, row after row.
struct RowsTimesTokens<'a> {
    m: &'a Matrix,
    rows: Range<usize>,
    xs: &'a [f32],
    x_sums: &'a [f32],
    n: usize,
}

impl OnPath for RowsTimesTokens<'_> {
    type Output = Vec<f32>;

    #[inline(always)]
    unsafe fn run<L: Lanes, const MR: usize>(self) -> Vec<f32> {
        let (c, n) = (self.m.cols, self.n);
        let blocks = c / BLOCK;
        let mut out = Vec::with_capacity(self.rows.len() * n);
        let mut expanded = vec![0f32; c];
        for r in self.rows {
            // one token: straight from the blocks; several: expand the row once for them all
            let w: &[f32] = match &self.m.data {
                Rows::F32(w) => &w[r * c..(r + 1) * c],
                Rows::Q4_1(b) if n > 1 => {
                    kernels::expand_q4_1::<L>(&b[r * blocks * 20..][..blocks * 20], &mut expanded);
                    &expanded
                }
                Rows::Q8_0(b) if n > 1 => {
                    kernels::expand_q8_0::<L>(&b[r * blocks * 34..][..blocks * 34], &mut expanded);
                    &expanded
                }
                Rows::Q4_1(b) => {
                    let row = &b[r * blocks * 20..][..blocks * 20];
                    out.push(kernels::dot_q4_1::<L>(row, self.xs, &self.x_sums[..blocks]));
                    continue;
                }
                Rows::Q8_0(b) => {
                    out.push(kernels::dot_q8_0::<L>(&b[r * blocks * 34..][..blocks * 34], self.xs));
                    continue;
                }
            };
            for t in 0..n {
                out.push(kernels::dot_f32::<L>(w, &self.xs[t * c..(t + 1) * c]));
            }
        }
        out
    }
}

//! A linear layer for many tokens at once, `y = x Wᵀ + b`, as a matrix product in registers:
//! chapter 8's score kernel (`q_i · k_j` for a strip of queries against a panel of packed keys)
//! is exactly a block of `x Wᵀ` when the keys are the weight's rows. The product runs on the
//! instruction set chapter 8 picks at run time (AVX-512, AVX2 or portable), a block of rows per
//! thread.

#![allow(unsafe_code)] // the products run through chapter 8's `Isa::run`, which needs the CPU checked

use ch08_efficient::fast::kernel::{pack_keys, scores};
use ch08_efficient::fast::lanes::Lanes;
use ch08_efficient::fast::{Isa, OnPath};
use rayon::prelude::*;

/// What happens to each output after the product and the bias.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Then {
    Nothing,
    /// the exact GELU, `x Φ(x)` (see [`gelu`])
    Gelu,
}

/// A `Linear(inputs -> outputs)` with its weight packed in panels of `2W` rows for `isa`.
#[derive(Clone, Debug)]
pub struct PackedLinear {
    pub inputs: usize,
    pub outputs: usize,
    pub isa: Isa,
    /// panels of `nr` weight rows, each `inputs × nr`, laid out as chapter 8 packs keys
    panels: Vec<f32>,
    bias: Vec<f32>,
}

/// Rows of `x` per task: the block's rows and one panel stay in the L2 cache while the panel is
/// used for all of them.
const BLOCK_ROWS: usize = 96;

impl PackedLinear {
    /// Packs `weight` (`outputs × inputs`, PyTorch's layout) and `bias` for `isa`.
    ///
    /// # Panics
    /// If the lengths do not fit, or `outputs` is not a multiple of the panel width (`2W`: 16
    /// or 32; BERT's widths all are).
    pub fn new(isa: Isa, weight: &[f32], bias: &[f32], inputs: usize) -> Self {
        let outputs = bias.len();
        let nr = 2 * isa.lanes();
        assert_eq!(weight.len(), outputs * inputs, "a {outputs} x {inputs} weight");
        assert!(outputs.is_multiple_of(nr), "{outputs} outputs: not a multiple of {nr}");
        let mut panels = vec![0.0; outputs * inputs];
        pack_keys(&mut panels, weight, inputs, nr);
        PackedLinear { inputs, outputs, isa, panels, bias: bias.to_vec() }
    }

    /// `x Wᵀ + b` for `x` of `n` rows (`n × inputs`, row-major), then `then`: `n × outputs`.
    pub fn forward(&self, x: &[f32], then: Then) -> Vec<f32> {
        assert!(x.len().is_multiple_of(self.inputs), "rows of {} values", self.inputs);
        let mut out = vec![0.0; x.len() / self.inputs * self.outputs];
        out.par_chunks_mut(BLOCK_ROWS * self.outputs)
            .zip(x.par_chunks(BLOCK_ROWS * self.inputs))
            .for_each(|(out, x)| self.isa.run(Block { linear: self, x, out, then }));
        out
    }
}

/// One block of rows through the whole layer.
struct Block<'a> {
    linear: &'a PackedLinear,
    x: &'a [f32],
    out: &'a mut [f32],
    then: Then,
}

impl OnPath for Block<'_> {
    type Output = ();

    #[inline(always)]
    unsafe fn run<L: Lanes, const MR: usize>(self) {
        let Block { linear, x, out, then } = self;
        let (d, o, nr) = (linear.inputs, linear.outputs, 2 * L::W);
        let rows = x.len() / d;
        let mut strip = [0.0f32; 32 * 16]; // MR × nr results, MR <= 16 and nr <= 32
        for (p, panel) in linear.panels.chunks_exact(d * nr).enumerate() {
            let bias = &linear.bias[p * nr..(p + 1) * nr];
            for r0 in (0..rows).step_by(MR) {
                // a short last strip repeats its last row; those results are not kept
                let qs: [&[f32]; MR] =
                    std::array::from_fn(|i| &x[(r0 + i).min(rows - 1) * d..][..d]);
                scores::<L, MR>(&qs, panel, 1.0, &mut strip[..MR * nr], nr);
                for i in 0..MR.min(rows - r0) {
                    let dst = &mut out[(r0 + i) * o + p * nr..][..nr];
                    for ((y, s), b) in dst.iter_mut().zip(&strip[i * nr..(i + 1) * nr]).zip(bias) {
                        *y = s + b;
                    }
                }
            }
        }
        if then == Then::Gelu {
            out.iter_mut().for_each(|y| *y = gelu(*y));
        }
    }
}

/// The exact GELU, `x Φ(x) = x (1 + erf(x / √2)) / 2`, with `erf` by Abramowitz and Stegun's
/// formula 7.1.26 (absolute error below 1.5e-7; PyTorch's vectorised `erf` on the CPU uses the
/// same formula), branch-free so that the compiler vectorises it.
#[inline(always)]
pub fn gelu(x: f32) -> f32 {
    const P: f32 = 0.327_591_1;
    const A: [f32; 5] = [0.254_829_6, -0.284_496_74, 1.421_413_7, -1.453_152_1, 1.061_405_4];
    let z = (x * std::f32::consts::FRAC_1_SQRT_2).abs();
    let t = 1.0 / (1.0 + P * z);
    let poly = t * (A[0] + t * (A[1] + t * (A[2] + t * (A[3] + t * A[4]))));
    let erf_abs = 1.0 - poly * ch08_efficient::fast::lanes::exp(-z * z);
    let erf = erf_abs.copysign(x);
    0.5 * x * (1.0 + erf)
}

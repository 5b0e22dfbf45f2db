//! The parameter table of a [`Vit`], built from its sizes: every formula evaluates to its
//! number, and `worked_example_demo_parameters` checks each row against dfdx's count of that part
//! and PyTorch's.

use dfdx::prelude::*;
use support::params::{Count, ParamTable};

use crate::Vit;

impl<
        const C: usize,
        const IMG: usize,
        const P: usize,
        const PD: usize,
        const SEQ: usize,
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        const L: usize,
        const CLASSES: usize,
        Dev: Device<f32>,
    > Vit<C, IMG, P, PD, SEQ, M, H, DK, F, L, CLASSES, f32, Dev>
{
    /// The rows of the page's table: patch embedding, `[CLS]`, positions, one block (a detail),
    /// all blocks, the final norm and the classifier. Their sum is [`Self::NUM_PARAMS`].
    pub fn parameter_table() -> ParamTable {
        let n = Count::n;
        let linear = |i: Count, o: usize| i * n(o) + n(o);
        // W_q, W_k, W_v, W_o with biases; Linear(M, F), Linear(F, M); two norms, scale and shift
        let block = n(4) * (Count::squared(M) + n(M))
            + linear(n(M), F)
            + linear(n(F), M)
            + n(2) * n(2) * n(M);
        let block_count = block.value();
        ParamTable::default()
            .part(
                &format!("patch embedding, `Conv2d({C}, {M}, {P}, stride {P})`"),
                linear(n(C) * n(P) * n(P), M),
            )
            .part("`[CLS]` token", n(M))
            .part("position embeddings", n(SEQ) * n(M))
            .detail("one encoder block", block)
            .part(&format!("{L} encoder blocks"), n(L) * n(block_count))
            .part("final `LayerNorm`", n(2) * n(M))
            .part(&format!("classifier, `Linear({M}, {CLASSES})`"), linear(n(M), CLASSES))
    }
}

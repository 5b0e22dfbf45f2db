//! The model's parameter count, term by term, from its sizes.

use support::params::{Count, ParamTable};

/// The sizes that decide the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    pub vocab: usize,
    pub hidden: usize,
    /// `KV_HEADS * HEAD_DIM`, the width of the key and value projections
    pub kv_width: usize,
    /// the SwiGLU hidden width
    pub intermediate: usize,
    pub layers: usize,
    /// whether the output projection reuses the embedding table (GPT-2) or has its own (Llama)
    pub tied: bool,
}

/// The tiny model's sizes (the parity fixture's and the trained model's).
pub const TINY: Sizes =
    Sizes { vocab: 96, hidden: 64, kv_width: 32, intermediate: 160, layers: 2, tied: false };

/// Each part's formula and count; the total is their sum.
// ANCHOR: parameter_table
pub fn parameter_table(s: Sizes) -> ParamTable {
    let n = Count::n;
    let (v, m, kv, f) = (s.vocab, s.hidden, s.kv_width, s.intermediate);
    // q and o are m x m; k and v are kv x m; no biases anywhere
    let attention = n(2) * n(m) * n(m) + n(2) * n(kv) * n(m);
    let mlp = n(3) * n(m) * n(f); // gate, up, down
    let block = attention + mlp + n(2) * n(m); // and two RMSNorm scales
    ParamTable::default()
        .part("token embedding", n(v) * n(m))
        .detail(
            "one block: attention (q, k, v, o), SwiGLU (gate, up, down), 2 RMSNorms",
            block.clone(),
        )
        .part(&format!("{} blocks", s.layers), n(s.layers) * n(block.value()))
        .part("final RMSNorm", n(m))
        .part(
            if s.tied { "output projection: the embedding, tied" } else { "output projection" },
            if s.tied { n(0) } else { n(m) * n(v) },
        )
        .part("positions: RoPE has no parameters", n(0))
}
// ANCHOR_END: parameter_table

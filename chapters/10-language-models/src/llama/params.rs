//! The model's parameter count, term by term, from its [`Config`].

use support::params::{Count, ParamTable};

use crate::llama::config::Config;

/// Each part's formula and count for a Llama-family model of these sizes (no biases, RMSNorm,
/// SwiGLU, RoPE); the total is their sum.
// ANCHOR: parameter_table
pub fn parameter_table(s: Config) -> ParamTable {
    let n = Count::n;
    let (v, m, kv, f) = (s.vocab_size, s.hidden_size, s.kv_width(), s.intermediate_size);
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
        .part(&format!("{} blocks", s.num_hidden_layers), n(s.num_hidden_layers) * n(block.value()))
        .part("final RMSNorm", n(m))
        .part(
            if s.tie_word_embeddings {
                "output projection: the embedding, tied"
            } else {
                "output projection"
            },
            if s.tie_word_embeddings { n(0) } else { n(m) * n(v) },
        )
        .part("positions: RoPE has no parameters", n(0))
}
// ANCHOR_END: parameter_table

//! A Qwen3-Next attention layer from a safetensors file with Hugging Face's names. Its `q_proj`
//! holds, for each head in turn, the head's query rows and then its gate rows; they are cut apart
//! here. Its RMSNorm scales by `1 + weight`, read as Gemma's is.

use std::path::Path;

use ch10_language_models::{GroupedQueryAttention, Rope, RopeLayout};
use ch12_real_bert::load::Entries;
use dfdx::prelude::*;

use super::GatedAttention;
use crate::hf::Reader;
use crate::qk_norm::{NormedAttention, QkNorms};

/// Splits `q_proj`'s `(HEADS · 2 · HEAD_DIM, HIDDEN)` rows into the queries' and the gate's,
/// each `(HEADS · HEAD_DIM, HIDDEN)`.
pub fn split_query_and_gate(w: &[f32], heads: usize, head_dim: usize) -> (Vec<f32>, Vec<f32>) {
    let width = w.len() / (heads * 2 * head_dim);
    let (mut q, mut g) = (Vec::with_capacity(w.len() / 2), Vec::with_capacity(w.len() / 2));
    for (i, row) in w.chunks(width).enumerate() {
        let target = if (i / head_dim).is_multiple_of(2) { &mut q } else { &mut g };
        target.extend_from_slice(row);
    }
    (q, g)
}

impl<
        const HIDDEN: usize,
        const HEADS: usize,
        const KV_HEADS: usize,
        const HEAD_DIM: usize,
        const KV_WIDTH: usize,
        Dev: Device<f32>,
    > GatedAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, Dev>
{
    /// Layer `layer` of the file at `path`; `eps` is `rms_norm_eps`, `theta` the RoPE base
    /// (every feature turned, in halves).
    pub fn load(
        dev: &Dev,
        path: &Path,
        layer: usize,
        eps: f64,
        theta: f64,
    ) -> Result<Self, String> {
        let mut entries = Entries::read(path)?;
        let p = format!("model.layers.{layer}.self_attn");
        let both = entries.take(&format!("{p}.q_proj.weight"), &[2 * HIDDEN, HIDDEN])?;
        let (q, g) = split_query_and_gate(&both, HEADS, HEAD_DIM);
        let shape = (Const::<HIDDEN>, Const::<HIDDEN>);
        let mut r = Reader { entries: &mut entries, dev: dev.clone() };
        let mut gqa: GroupedQueryAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, f32, Dev> =
            GroupedQueryAttention::new(dev);
        gqa.q_proj.weight = dev.tensor_from_vec(q, shape);
        gqa.k_proj.weight = r.matrix(&format!("{p}.k_proj.weight"))?;
        gqa.v_proj.weight = r.matrix(&format!("{p}.v_proj.weight"))?;
        gqa.o_proj.weight = r.matrix(&format!("{p}.o_proj.weight"))?;
        let norms = QkNorms::PerHead {
            q: r.gemma_norm(&format!("{p}.q_norm.weight"), eps)?,
            k: r.gemma_norm(&format!("{p}.k_norm.weight"), eps)?,
        };
        Ok(GatedAttention {
            attention: NormedAttention { gqa, norms },
            gate: dev.tensor_from_vec(g, shape),
            rope: Rope::new(theta, RopeLayout::HalfSplit),
        })
    }
}

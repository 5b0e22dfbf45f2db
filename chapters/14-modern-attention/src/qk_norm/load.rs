//! Qwen3's and OLMo 2's weights from a safetensors file, by Hugging Face's names. Every entry is
//! used, and any other is an error.

use std::path::Path;

use ch10_language_models::{Rope, RopeLayout};
use ch12_real_bert::load::Entries;
use dfdx::prelude::*;

use crate::hf::Reader;

use super::model::{NormedAttention, NormedBlock, NormedLm, Placement, QkNorms};

/// Which model's layout the file has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `Qwen3ForCausalLM`: per-head QK-norm, norms on the sublayers' inputs.
    Qwen3,
    /// `Olmo2ForCausalLM`: full-width QK-norm, norms on the sublayers' outputs.
    Olmo2,
}

impl<
        const VOCAB: usize,
        const HIDDEN: usize,
        const HEADS: usize,
        const KV_HEADS: usize,
        const HEAD_DIM: usize,
        const KV_WIDTH: usize,
        const INTERMEDIATE: usize,
        Dev: Device<f32>,
    > NormedLm<VOCAB, HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, INTERMEDIATE, Dev>
{
    /// Reads `layers` blocks of a `family` model; `eps` is `rms_norm_eps`, `theta` the RoPE base.
    pub fn load(
        dev: &Dev,
        path: &Path,
        family: Family,
        layers: usize,
        eps: f64,
        theta: f64,
    ) -> Result<Self, String> {
        let mut entries = Entries::read(path)?;
        let mut r = Reader { entries: &mut entries, dev: dev.clone() };
        let mut blocks = Vec::with_capacity(layers);
        for i in 0..layers {
            let p = format!("model.layers.{i}");
            let gqa = r.gqa(&format!("{p}.self_attn"))?;
            let (q, k) =
                (format!("{p}.self_attn.q_norm.weight"), format!("{p}.self_attn.k_norm.weight"));
            let norms = match family {
                Family::Qwen3 => QkNorms::PerHead { q: r.norm(&q, eps)?, k: r.norm(&k, eps)? },
                Family::Olmo2 => QkNorms::FullWidth { q: r.norm(&q, eps)?, k: r.norm(&k, eps)? },
            };
            let mlp = r.swiglu(&format!("{p}.mlp"))?;
            let (attention_norm, mlp_norm, placement) = match family {
                Family::Qwen3 => (
                    r.norm(&format!("{p}.input_layernorm.weight"), eps)?,
                    r.norm(&format!("{p}.post_attention_layernorm.weight"), eps)?,
                    Placement::Input,
                ),
                Family::Olmo2 => (
                    r.norm(&format!("{p}.post_attention_layernorm.weight"), eps)?,
                    r.norm(&format!("{p}.post_feedforward_layernorm.weight"), eps)?,
                    Placement::Output,
                ),
            };
            let attention = NormedAttention { gqa, norms };
            blocks.push(NormedBlock { attention, attention_norm, mlp, mlp_norm, placement });
        }
        let model = NormedLm {
            embed: r.matrix("model.embed_tokens.weight")?,
            blocks,
            norm: r.norm("model.norm.weight", eps)?,
            lm_head: r.matrix("lm_head.weight")?,
            rope: Rope::new(theta, RopeLayout::HalfSplit),
        };
        entries.finish()?;
        Ok(model)
    }
}

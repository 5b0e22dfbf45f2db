//! Gemma 3's weights from a safetensors file, by Hugging Face's names. Every entry is used, and
//! any other is an error. Gemma's RMSNorm scales by `1 + weight`, so each norm is read as chapter
//! 10's RMSNorm with `1 + weight` (both computed in `f32`).

use std::path::Path;

use ch10_language_models::{RmsNorm, Rope, RopeLayout};
use ch12_real_bert::load::Entries;
use dfdx::prelude::*;

use super::model::{GemmaBlock, GemmaLm, Reach};
use crate::hf::Reader;
use crate::qk_norm::{NormedAttention, QkNorms};

/// What the file does not say: the layers' kinds, the window, the two RoPE bases, the scores'
/// divisor and RMSNorm's epsilon (`config.json`'s `layer_types`, `sliding_window`,
/// `rope_parameters`, `query_pre_attn_scalar`, `rms_norm_eps`).
#[derive(Clone, Debug)]
pub struct GemmaConfig {
    pub reaches: Vec<Reach>,
    pub window: usize,
    pub local_theta: f64,
    pub global_theta: f64,
    pub query_pre_attn_scalar: f32,
    pub eps: f64,
}

impl<Dev: Device<f32>> Reader<'_, Dev> {
    /// Gemma's RMSNorm: chapter 10's with the weight `1 + w`.
    pub fn gemma_norm<const N: usize>(
        &mut self,
        name: &str,
        eps: f64,
    ) -> Result<RmsNorm<N, f32, Dev>, String> {
        let mut norm = self.norm(name, eps)?;
        norm.weight = norm.weight + 1.0;
        Ok(norm)
    }
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
    > GemmaLm<VOCAB, HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, INTERMEDIATE, Dev>
{
    pub fn load(dev: &Dev, path: &Path, config: &GemmaConfig) -> Result<Self, String> {
        let mut entries = Entries::read(path)?;
        let mut r = Reader { entries: &mut entries, dev: dev.clone() };
        let eps = config.eps;
        let mut blocks = Vec::with_capacity(config.reaches.len());
        for (i, &reach) in config.reaches.iter().enumerate() {
            let p = format!("model.layers.{i}");
            let gqa = r.gqa(&format!("{p}.self_attn"))?;
            let norms = QkNorms::PerHead {
                q: r.gemma_norm(&format!("{p}.self_attn.q_norm.weight"), eps)?,
                k: r.gemma_norm(&format!("{p}.self_attn.k_norm.weight"), eps)?,
            };
            let mut norm = |name: &str| r.gemma_norm(&format!("{p}.{name}.weight"), eps);
            let block_norms = [
                norm("input_layernorm")?,
                norm("post_attention_layernorm")?,
                norm("pre_feedforward_layernorm")?,
                norm("post_feedforward_layernorm")?,
            ];
            blocks.push(GemmaBlock {
                attention: NormedAttention { gqa, norms },
                norms: block_norms,
                mlp: r.swiglu(&format!("{p}.mlp"))?,
                reach,
            });
        }
        let model = GemmaLm {
            embed: r.matrix("model.embed_tokens.weight")?,
            blocks,
            norm: r.gemma_norm("model.norm.weight", eps)?,
            local_rope: Rope::new(config.local_theta, RopeLayout::HalfSplit),
            global_rope: Rope::new(config.global_theta, RopeLayout::HalfSplit),
            window: config.window,
            query_pre_attn_scalar: config.query_pre_attn_scalar,
        };
        entries.finish()?;
        Ok(model)
    }
}

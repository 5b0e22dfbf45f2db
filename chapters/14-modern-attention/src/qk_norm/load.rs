//! Qwen3's and OLMo 2's weights from a safetensors file, by Hugging Face's names. Every entry is
//! used, and any other is an error.

use std::path::Path;

use ch10_language_models::{GroupedQueryAttention, RmsNorm, Rope, RopeLayout, SwiGlu};
use ch12_real_bert::load::Entries;
use dfdx::nn::BuildModule;
use dfdx::prelude::*;

use super::model::{NormedAttention, NormedBlock, NormedLm, Placement, QkNorms};

/// Which model's layout the file has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `Qwen3ForCausalLM`: per-head QK-norm, norms on the sublayers' inputs.
    Qwen3,
    /// `Olmo2ForCausalLM`: full-width QK-norm, norms on the sublayers' outputs.
    Olmo2,
}

struct Reader<'a, Dev> {
    entries: &'a mut Entries,
    dev: Dev,
    eps: f64,
}

impl<Dev: Device<f32>> Reader<'_, Dev> {
    fn matrix<const O: usize, const I: usize>(
        &mut self,
        name: &str,
    ) -> Result<Tensor<(Const<O>, Const<I>), f32, Dev>, String> {
        Ok(self.dev.tensor_from_vec(self.entries.take(name, &[O, I])?, (Const::<O>, Const::<I>)))
    }

    fn norm<const N: usize>(&mut self, name: &str) -> Result<RmsNorm<N, f32, Dev>, String> {
        let mut norm = RmsNorm::new(&self.dev);
        norm.weight = self.dev.tensor_from_vec(self.entries.take(name, &[N])?, (Const::<N>,));
        norm.eps = self.eps;
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
        let mut r = Reader { entries: &mut entries, dev: dev.clone(), eps };
        let mut blocks = Vec::with_capacity(layers);
        for i in 0..layers {
            let p = format!("model.layers.{i}");
            let mut gqa: GroupedQueryAttention<
                HIDDEN,
                HEADS,
                KV_HEADS,
                HEAD_DIM,
                KV_WIDTH,
                f32,
                Dev,
            > = GroupedQueryAttention::new(dev);
            gqa.q_proj.weight = r.matrix(&format!("{p}.self_attn.q_proj.weight"))?;
            gqa.k_proj.weight = r.matrix(&format!("{p}.self_attn.k_proj.weight"))?;
            gqa.v_proj.weight = r.matrix(&format!("{p}.self_attn.v_proj.weight"))?;
            gqa.o_proj.weight = r.matrix(&format!("{p}.self_attn.o_proj.weight"))?;
            let (q, k) =
                (format!("{p}.self_attn.q_norm.weight"), format!("{p}.self_attn.k_norm.weight"));
            let norms = match family {
                Family::Qwen3 => QkNorms::PerHead { q: r.norm(&q)?, k: r.norm(&k)? },
                Family::Olmo2 => QkNorms::FullWidth { q: r.norm(&q)?, k: r.norm(&k)? },
            };
            let mut mlp: SwiGlu<HIDDEN, INTERMEDIATE, f32, Dev> = BuildModule::build(dev);
            mlp.gate_proj.weight = r.matrix(&format!("{p}.mlp.gate_proj.weight"))?;
            mlp.up_proj.weight = r.matrix(&format!("{p}.mlp.up_proj.weight"))?;
            mlp.down_proj.weight = r.matrix(&format!("{p}.mlp.down_proj.weight"))?;
            let (attention_norm, mlp_norm, placement) = match family {
                Family::Qwen3 => (
                    r.norm(&format!("{p}.input_layernorm.weight"))?,
                    r.norm(&format!("{p}.post_attention_layernorm.weight"))?,
                    Placement::Input,
                ),
                Family::Olmo2 => (
                    r.norm(&format!("{p}.post_attention_layernorm.weight"))?,
                    r.norm(&format!("{p}.post_feedforward_layernorm.weight"))?,
                    Placement::Output,
                ),
            };
            let attention = NormedAttention { gqa, norms };
            blocks.push(NormedBlock { attention, attention_norm, mlp, mlp_norm, placement });
        }
        let model = NormedLm {
            embed: r.matrix("model.embed_tokens.weight")?,
            blocks,
            norm: r.norm("model.norm.weight")?,
            lm_head: r.matrix("lm_head.weight")?,
            rope: Rope::new(theta, RopeLayout::HalfSplit),
        };
        entries.finish()?;
        Ok(model)
    }
}

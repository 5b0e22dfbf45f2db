//! A gpt-oss attention layer from a safetensors file with Hugging Face's names
//! (`model.layers.{i}.self_attn.{q,k,v,o}_proj.{weight,bias}`, `...self_attn.sinks`).

use std::path::Path;

use ch10_language_models::{Rope, RopeLayout};
use ch12_real_bert::load::Entries;
use dfdx::nn::modules::Linear;
use dfdx::nn::BuildModule;
use dfdx::prelude::*;

use super::SinkAttention;
use crate::hf::Reader;

/// The fixture's layers: 4 heads of 16 over 2 key/value heads, on a width of 64.
pub type TinySinkAttention<Dev> = SinkAttention<64, 4, 2, 16, 64, 32, Dev>;

impl<Dev: Device<f32>> Reader<'_, Dev> {
    /// `nn.Linear` with its bias, from `{prefix}.weight` and `{prefix}.bias`.
    pub fn linear<const I: usize, const O: usize>(
        &mut self,
        prefix: &str,
    ) -> Result<Linear<I, O, f32, Dev>, String> {
        let mut linear: Linear<I, O, f32, Dev> = BuildModule::build(&self.dev);
        linear.weight = self.matrix(&format!("{prefix}.weight"))?;
        linear.bias = self.vector(&format!("{prefix}.bias"))?;
        Ok(linear)
    }

    /// A vector of `N` numbers.
    pub fn vector<const N: usize>(
        &mut self,
        name: &str,
    ) -> Result<Tensor<(Const<N>,), f32, Dev>, String> {
        Ok(self.dev.tensor_from_vec(self.entries.take(name, &[N])?, (Const::<N>,)))
    }
}

impl<
        const HIDDEN: usize,
        const HEADS: usize,
        const KV_HEADS: usize,
        const HEAD_DIM: usize,
        const Q_WIDTH: usize,
        const KV_WIDTH: usize,
        Dev: Device<f32>,
    > SinkAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, Q_WIDTH, KV_WIDTH, Dev>
{
    /// Layer `layer` of the file at `path`, with `window` keys at most per query and RoPE of base
    /// `theta` on halves (gpt-oss's `_apply_rotary_emb`).
    pub fn load(
        dev: &Dev,
        path: &Path,
        layer: usize,
        window: Option<usize>,
        theta: f64,
    ) -> Result<Self, String> {
        let mut entries = Entries::read(path)?;
        let mut r = Reader { entries: &mut entries, dev: dev.clone() };
        let p = format!("model.layers.{layer}.self_attn");
        Ok(SinkAttention {
            q_proj: r.linear(&format!("{p}.q_proj"))?,
            k_proj: r.linear(&format!("{p}.k_proj"))?,
            v_proj: r.linear(&format!("{p}.v_proj"))?,
            o_proj: r.linear(&format!("{p}.o_proj"))?,
            sinks: r.vector(&format!("{p}.sinks"))?,
            window,
            rope: Rope::new(theta, RopeLayout::HalfSplit),
        })
    }
}

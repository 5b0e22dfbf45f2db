//! A DeepSeek-style model's weights from a safetensors file, by the names Hugging Face's
//! `DeepseekV3ForCausalLM` gives them. Hugging Face keeps each projection as one `nn.Linear`;
//! here they are cut into the paper's matrices, per head: `q_b_proj` into `W^UQ` and `W^QR`,
//! `kv_a_proj_with_mqa` into `W^DKV` and `W^KR`, `kv_b_proj` into `W^UK` and `W^UV`, `o_proj`
//! into each head's share. Every entry is used, and any other is an error.

use std::path::Path;

use ch10_language_models::{Rope, RopeLayout};
use ch12_real_bert::load::Entries;
use dfdx::prelude::*;

use super::attention::LatentAttention;
use super::model::{LatentBlock, LatentLm};
use super::products::HeadMatrices;
use crate::hf::Reader;

/// DeepSeek's attention norms (`q_a_layernorm`, `kv_a_layernorm`) keep RMSNorm's default
/// epsilon whatever the configuration's `rms_norm_eps`.
pub const LATENT_NORM_EPS: f64 = 1e-6;

/// Rows `offset .. offset + count` of every head's `per_head` rows of a `(heads · per_head, I)`
/// matrix, as `(heads, I, count)`: each head's part, ready to multiply on the right.
pub fn head_rows(
    w: &[f32],
    inputs: usize,
    per_head: usize,
    offset: usize,
    count: usize,
) -> Vec<f32> {
    let heads = w.len() / (per_head * inputs);
    let mut out = Vec::with_capacity(heads * inputs * count);
    for h in 0..heads {
        for i in 0..inputs {
            out.extend((0..count).map(|j| w[(h * per_head + offset + j) * inputs + i]));
        }
    }
    out
}

/// `o_proj` `(O, heads · V)` as `(heads, V, O)`: each head's columns, transposed.
pub fn head_columns(w: &[f32], outputs: usize, heads: usize, v: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(heads * v * outputs);
    for h in 0..heads {
        for i in 0..v {
            out.extend((0..outputs).map(|o| w[o * heads * v + h * v + i]));
        }
    }
    out
}

/// Each head's matrices from a list of numbers laid out `(H, I, O)`.
fn heads<const H: usize, const I: usize, const O: usize, Dev: Device<f32>>(
    dev: &Dev,
    values: Vec<f32>,
) -> HeadMatrices<H, I, O, Dev> {
    dev.tensor_from_vec(values, (Const::<H>, Const::<I>, Const::<O>))
}

impl<
        const VOCAB: usize,
        const HIDDEN: usize,
        const HEADS: usize,
        const Q_RANK: usize,
        const KV_RANK: usize,
        const NOPE: usize,
        const ROPE: usize,
        const V: usize,
        const INTERMEDIATE: usize,
        Dev: Device<f32>,
    > LatentLm<VOCAB, HIDDEN, HEADS, Q_RANK, KV_RANK, NOPE, ROPE, V, INTERMEDIATE, Dev>
{
    /// Reads `layers` blocks from `path`; `eps` is the configuration's `rms_norm_eps`, `theta`
    /// its RoPE base.
    pub fn load(
        dev: &Dev,
        path: &Path,
        layers: usize,
        eps: f64,
        theta: f64,
    ) -> Result<Self, String> {
        let mut entries = Entries::read(path)?;
        let mut r = Reader { entries: &mut entries, dev: dev.clone() };
        let mut blocks = Vec::with_capacity(layers);
        for i in 0..layers {
            let p = format!("model.layers.{i}");
            let a = format!("{p}.self_attn");
            let q_b = r
                .entries
                .take(&format!("{a}.q_b_proj.weight"), &[HEADS * (NOPE + ROPE), Q_RANK])?;
            let kv_a = r
                .entries
                .take(&format!("{a}.kv_a_proj_with_mqa.weight"), &[KV_RANK + ROPE, HIDDEN])?;
            let kv_b =
                r.entries.take(&format!("{a}.kv_b_proj.weight"), &[HEADS * (NOPE + V), KV_RANK])?;
            let o = r.entries.take(&format!("{a}.o_proj.weight"), &[HIDDEN, HEADS * V])?;
            let attention = LatentAttention {
                q_down: r.matrix(&format!("{a}.q_a_proj.weight"))?,
                q_norm: r.norm(&format!("{a}.q_a_layernorm.weight"), LATENT_NORM_EPS)?,
                q_up: heads(dev, head_rows(&q_b, Q_RANK, NOPE + ROPE, 0, NOPE)),
                q_rope: heads(dev, head_rows(&q_b, Q_RANK, NOPE + ROPE, NOPE, ROPE)),
                kv_down: dev.tensor_from_vec(
                    kv_a[..KV_RANK * HIDDEN].to_vec(),
                    (Const::<KV_RANK>, Const::<HIDDEN>),
                ),
                kv_norm: r.norm(&format!("{a}.kv_a_layernorm.weight"), LATENT_NORM_EPS)?,
                k_rope: dev.tensor_from_vec(
                    kv_a[KV_RANK * HIDDEN..].to_vec(),
                    (Const::<ROPE>, Const::<HIDDEN>),
                ),
                k_up: heads(dev, head_rows(&kv_b, KV_RANK, NOPE + V, 0, NOPE)),
                v_up: heads(dev, head_rows(&kv_b, KV_RANK, NOPE + V, NOPE, V)),
                o: heads(dev, head_columns(&o, HIDDEN, HEADS, V)),
                rope: Rope::new(theta, RopeLayout::Interleaved),
            };
            let mlp = r.swiglu(&format!("{p}.mlp"))?;
            blocks.push(LatentBlock {
                input_norm: r.norm(&format!("{p}.input_layernorm.weight"), eps)?,
                absorbed: attention.absorb(),
                attention,
                post_norm: r.norm(&format!("{p}.post_attention_layernorm.weight"), eps)?,
                mlp,
            });
        }
        let model = LatentLm {
            embed: r.matrix("model.embed_tokens.weight")?,
            blocks,
            norm: r.norm("model.norm.weight", eps)?,
            lm_head: r.matrix("lm_head.weight")?,
        };
        entries.finish()?;
        Ok(model)
    }
}

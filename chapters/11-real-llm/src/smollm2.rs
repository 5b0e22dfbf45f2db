//! SmolLM2-135M-Instruct on chapter 10's model: the sizes as a type, and its weights read from the
//! GGUF file, dequantized to `f32`. Every setting the model needs is read from the file's
//! metadata; a missing or different one is an error, never a silent default.

use crate::gguf::{dequantize, Gguf, Value};
use ch10_language_models::llama::config::SMOLLM2_135M as C;
use ch10_language_models::llama::permute::interleaved_to_half_split;
use ch10_language_models::{CausalLm, Rope, RopeLayout};
use dfdx::prelude::*;

/// Chapter 10's causal language model at SmolLM2-135M's sizes.
// ANCHOR: smollm2_type
pub type SmolLm2<Dev> = CausalLm<
    { C.vocab_size },
    { C.hidden_size },
    { C.num_attention_heads },
    { C.num_key_value_heads },
    { C.head_dim },
    { C.kv_width() },
    { C.intermediate_size },
    { C.num_hidden_layers },
    f32,
    Dev,
>;
// ANCHOR_END: smollm2_type

/// The file's settings this chapter's model is built with, or why they do not fit.
fn setting(file: &Gguf, key: &str) -> Result<f64, String> {
    let value = file.get(key).ok_or_else(|| format!("metadata {key:?} is missing"))?;
    value
        .as_u64()
        .map(|v| v as f64)
        .or_else(|| value.as_f64())
        .ok_or_else(|| format!("metadata {key:?} is {value:?}, not a number"))
}

/// Which rows the query and key projections get, and which RoPE pairs they are turned in.
/// llama.cpp's converter permuted Hugging Face's query and key rows so that llama.cpp's
/// interleaved rotation gives the same scores: the file's rows go with the interleaved layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// the file's rows, the interleaved rotation: the model as published
    AsStored,
    /// the rows permuted back ([`interleaved_to_half_split`]), the half-split rotation: what
    /// Hugging Face runs; the same scores
    Unpermuted,
    /// the file's rows with the half-split rotation: the wrong pairs turned together
    Wrong,
}

/// The file's settings this chapter's models are built with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// RoPE's base from the file, in the layout the file's rows were written for (interleaved)
    pub rope: Rope,
    /// the norms' epsilon
    pub eps: f64,
}

/// SmolLM2-135M's sizes ([`SmolLm2`]'s, chapter 10's preset).
pub const CONFIG: ch10_language_models::llama::config::Config = C;

/// Checks that `file` holds a Llama of [`CONFIG`]'s sizes, and reads RoPE's base and the norms'
/// epsilon; a missing or different key is an error naming it.
pub fn settings(file: &Gguf) -> Result<Settings, String> {
    if file.get("general.architecture").and_then(Value::as_str) != Some("llama") {
        return Err("general.architecture is not \"llama\"".into());
    }
    let sizes = [
        ("llama.vocab_size", C.vocab_size),
        ("llama.embedding_length", C.hidden_size),
        ("llama.attention.head_count", C.num_attention_heads),
        ("llama.attention.head_count_kv", C.num_key_value_heads),
        ("llama.feed_forward_length", C.intermediate_size),
        ("llama.block_count", C.num_hidden_layers),
        ("llama.rope.dimension_count", C.head_dim),
    ];
    for (key, want) in sizes {
        let got = setting(file, key)?;
        if got != want as f64 {
            return Err(format!("metadata {key:?} is {got}, but this model has {want}"));
        }
    }
    let base = setting(file, "llama.rope.freq_base")?;
    let eps = setting(file, "llama.attention.layer_norm_rms_epsilon")?;
    Ok(Settings { rope: Rope::new(base, RopeLayout::Interleaved), eps })
}

/// The model of `file`'s weights: the sizes checked against [`SmolLm2`]'s, RoPE's base and the
/// norms' epsilon read from the file, the output projection tied to the embedding, RoPE as
/// published ([`Pairing::AsStored`]).
pub fn from_gguf<Dev: Device<f32>>(file: &Gguf, dev: &Dev) -> Result<SmolLm2<Dev>, String> {
    from_gguf_paired(file, dev, Pairing::AsStored)
}

/// [`from_gguf`] with the query and key rows and the rotation paired as `pairing` says.
pub fn from_gguf_paired<Dev: Device<f32>>(
    file: &Gguf,
    dev: &Dev,
    pairing: Pairing,
) -> Result<SmolLm2<Dev>, String> {
    let Settings { rope: Rope { base, .. }, eps } = settings(file)?;
    let mut model = SmolLm2::<Dev>::new(dev);
    let layout = match pairing {
        Pairing::AsStored => RopeLayout::Interleaved,
        Pairing::Unpermuted | Pairing::Wrong => RopeLayout::HalfSplit,
    };
    model.rope = Rope { base, layout };
    let rows = |w: Vec<f32>, heads: usize| match pairing {
        Pairing::Unpermuted => interleaved_to_half_split(&w, heads, C.hidden_size),
        Pairing::AsStored | Pairing::Wrong => w,
    };
    let weights = |name: &str, len: usize| -> Result<Vec<f32>, String> {
        let info = file.tensor(name).ok_or_else(|| format!("tensor {name:?} is missing"))?;
        let values = dequantize(info.kind, file.tensor_data(info));
        if values.len() != len {
            return Err(format!(
                "tensor {name:?} has {} values, this model needs {len}",
                values.len()
            ));
        }
        Ok(values)
    };
    let (h, kv, ff, vocab) = (C.hidden_size, C.kv_width(), C.intermediate_size, C.vocab_size);
    let embedding = weights("token_embd.weight", vocab * h)?;
    model.embed_tokens.weight.copy_from(&embedding);
    // tied: the output projection is the embedding matrix, (vocab, hidden) in both
    model.lm_head.weight.copy_from(&embedding);
    model.norm.weight.copy_from(&weights("output_norm.weight", h)?);
    model.norm.eps = eps;
    for (i, layer) in model.layers.iter_mut().enumerate() {
        let w = |part: &str, len: usize| weights(&format!("blk.{i}.{part}.weight"), len);
        // GGUF's dims [in, out] (innermost first) are PyTorch's (out, in), row-major: as dfdx's
        let (heads, kv_heads) = (C.num_attention_heads, C.num_key_value_heads);
        layer.self_attn.q_proj.weight.copy_from(&rows(w("attn_q", h * h)?, heads));
        layer.self_attn.k_proj.weight.copy_from(&rows(w("attn_k", kv * h)?, kv_heads));
        layer.self_attn.v_proj.weight.copy_from(&w("attn_v", kv * h)?);
        layer.self_attn.o_proj.weight.copy_from(&w("attn_output", h * h)?);
        layer.mlp.gate_proj.weight.copy_from(&w("ffn_gate", ff * h)?);
        layer.mlp.up_proj.weight.copy_from(&w("ffn_up", ff * h)?);
        layer.mlp.down_proj.weight.copy_from(&w("ffn_down", h * ff)?);
        layer.input_layernorm.weight.copy_from(&w("attn_norm", h)?);
        layer.post_attention_layernorm.weight.copy_from(&w("ffn_norm", h)?);
        layer.input_layernorm.eps = eps;
        layer.post_attention_layernorm.eps = eps;
    }
    Ok(model)
}

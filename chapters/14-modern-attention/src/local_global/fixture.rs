//! Gemma 3 on the chapter's code against Hugging Face's `Gemma3ForCausalLM` on the committed
//! fixture (`fixtures/make_gemma3.py`, transformers 5.24.0): 6 layers, five with a window of 8
//! keys and one global, 40 tokens.

use std::path::{Path, PathBuf};

use ch12_real_bert::load::Entries;
use serde_json::Value;
use support::max_abs_diff;

use super::load::GemmaConfig;
use super::{Reach, TinyGemma};

const GENERATOR: &str = "python chapters/14-modern-attention/fixtures/make_gemma3.py";

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// `gemma3.json`: the versions, the configuration and the input ids.
pub fn meta() -> Value {
    support::fixtures::load(&dir().join("gemma3.json").to_string_lossy(), GENERATOR)
}

/// The fixture's configuration, read from `gemma3.json`.
pub fn config() -> GemmaConfig {
    let c = meta()["config"].clone();
    let number = |v: &Value| v.as_f64().unwrap_or_else(|| panic!("a number in gemma3.json: {v}"));
    let reaches =
        c["layer_types"].as_array().expect("layer_types").iter().map(|t| match t.as_str() {
            Some("sliding_attention") => Reach::Local,
            Some("full_attention") => Reach::Global,
            other => panic!("an unknown layer type {other:?}"),
        });
    GemmaConfig {
        reaches: reaches.collect(),
        window: number(&c["sliding_window"]) as usize,
        local_theta: number(&c["rope_parameters"]["sliding_attention"]["rope_theta"]),
        global_theta: number(&c["rope_parameters"]["full_attention"]["rope_theta"]),
        query_pre_attn_scalar: number(&c["query_pre_attn_scalar"]) as f32,
        eps: number(&c["rms_norm_eps"]),
    }
}

/// The fixture's 40 token ids.
pub fn input_ids() -> Vec<usize> {
    let ids = meta()["input_ids"].as_array().cloned().unwrap_or_default();
    ids.iter().map(|t| t.as_u64().expect("a token id") as usize).collect()
}

/// The fixture's model on the chapter's code.
pub fn tiny_model() -> TinyGemma<support::Dev> {
    TinyGemma::load(&support::Dev::default(), &dir().join("gemma3.safetensors"), &config())
        .unwrap_or_else(|e| panic!("{e} (regenerate with {GENERATOR})"))
}

/// Hugging Face's output `what`, which must have `shape`.
pub fn expected(what: &str, shape: &[usize]) -> Vec<f32> {
    Entries::read(&dir().join("gemma3_expected.safetensors"))
        .and_then(|mut e| e.take(what, shape))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The largest differences from Hugging Face's numbers: the whole sequence's logits and last
/// hidden state, the attention weights of layer 0 (local) and layer 5 (global), and the logits
/// through the cache (24 tokens at once, then one at a time), with the keys each layer's cache
/// holds at the end.
#[derive(Clone, Debug)]
pub struct Differences {
    pub logits: f32,
    pub hidden: f32,
    pub local_weights: f32,
    pub global_weights: f32,
    pub cached: f32,
    pub held: Vec<usize>,
}

pub fn differences() -> Differences {
    let (model, ids) = (tiny_model(), input_ids());
    let pass = model.forward(&ids);
    let mut cache = model.new_cache();
    let mut logits = model.forward_cached(&ids[..24], &mut cache).as_vec();
    for t in 24..ids.len() {
        logits.extend(model.forward_cached(&ids[t..t + 1], &mut cache).as_vec());
    }
    let n = ids.len();
    Differences {
        logits: max_abs_diff(&pass.logits.as_vec(), &expected("logits", &[n, 96])),
        hidden: max_abs_diff(&pass.hidden.as_vec(), &expected("hidden", &[n, 64])),
        local_weights: max_abs_diff(&pass.weights[0].as_vec(), &expected("attention0", &[4, n, n])),
        global_weights: max_abs_diff(
            &pass.weights[5].as_vec(),
            &expected("attention5", &[4, n, n]),
        ),
        cached: max_abs_diff(&logits, &expected("cached_logits", &[n, 96])),
        held: cache.layers.iter().map(|l| l.len()).collect(),
    }
}

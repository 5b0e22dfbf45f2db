//! Qwen3-Next's attention layers on the chapter's code against Hugging Face's
//! `Qwen3NextAttention` inside a tiny `Qwen3NextForCausalLM` (`fixtures/make_gated.py`,
//! transformers 5.24.0).

use std::path::{Path, PathBuf};

use ch10_language_models::LayerCache;
use ch12_real_bert::load::Entries;
use dfdx::prelude::*;
use serde_json::Value;
use support::max_abs_diff;

use super::TinyGated;

const GENERATOR: &str = "python chapters/14-modern-attention/fixtures/make_gated.py";
const SEQ_LEN: usize = 40;
const PREFIX: usize = 24;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// `gated.json`: the versions and the configuration.
pub fn meta() -> Value {
    support::fixtures::load(&dir().join("gated.json").to_string_lossy(), GENERATOR)
}

/// The fixture's layer `layer` on the chapter's code.
pub fn layer(layer: usize) -> TinyGated<support::Dev> {
    let c = meta()["config"].clone();
    let (eps, theta) = (c["rms_norm_eps"].as_f64(), c["rope_parameters"]["rope_theta"].as_f64());
    let (eps, theta) = (eps.expect("rms_norm_eps"), theta.expect("rope_theta"));
    TinyGated::load(&support::Dev::default(), &dir().join("gated.safetensors"), layer, eps, theta)
        .unwrap_or_else(|e| panic!("{e} (regenerate with {GENERATOR})"))
}

/// Hugging Face's `what` for layer `layer`, which must have `shape`.
pub fn expected(layer: usize, what: &str, shape: &[usize]) -> Vec<f32> {
    Entries::read(&dir().join("gated_expected.safetensors"))
        .and_then(|mut e| e.take(&format!("layer{layer}_{what}"), shape))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// One layer's largest differences from Hugging Face: the output and weights of the whole
/// sequence, and the output through chapter 10's cache (24 tokens, then one at a time).
#[derive(Clone, Copy, Debug)]
pub struct Differences {
    pub output: f32,
    pub weights: f32,
    pub cached: f32,
}

pub fn differences(index: usize) -> Differences {
    let attention = layer(index);
    let dev = support::Dev::default();
    let x =
        dev.tensor_from_vec(expected(index, "input", &[SEQ_LEN, 64]), (1, SEQ_LEN, Const::<64>));
    let (out, weights) = attention.forward(x.clone());
    let mut cache = LayerCache::new();
    let first = attention.forward_cached(x.clone().slice((.., ..PREFIX, ..)), &mut cache);
    let mut cached = first.0.as_vec();
    for t in PREFIX..SEQ_LEN {
        let step = attention.forward_cached(x.clone().slice((.., t..t + 1, ..)), &mut cache);
        cached.extend(step.0.as_vec());
    }
    let hf_out = expected(index, "output", &[SEQ_LEN, 64]);
    Differences {
        output: max_abs_diff(&out.as_vec(), &hf_out),
        weights: max_abs_diff(
            &weights.as_vec(),
            &expected(index, "weights", &[4, SEQ_LEN, SEQ_LEN]),
        ),
        cached: max_abs_diff(&cached, &hf_out),
    }
}

//! gpt-oss's two kinds of attention layer on the chapter's code against Hugging Face's
//! `GptOssAttention` inside a tiny `GptOssForCausalLM` (`fixtures/make_sinks.py`, transformers
//! 5.24.0): layer 0 sees a window of 8 keys, layer 1 every key.

use std::path::{Path, PathBuf};

use ch12_real_bert::load::Entries;
use dfdx::prelude::*;
use serde_json::Value;
use support::max_abs_diff;

use super::load::TinySinkAttention;

const GENERATOR: &str = "python chapters/14-modern-attention/fixtures/make_sinks.py";
/// The fixture's sequence, and how many of its tokens go into the cache at once.
pub const SEQ_LEN: usize = 40;
pub const PREFIX: usize = 24;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// `sinks.json`: the versions and the configuration.
pub fn meta() -> Value {
    support::fixtures::load(&dir().join("sinks.json").to_string_lossy(), GENERATOR)
}

/// The fixture's layer `layer` (0: windowed, 1: full) on the chapter's code.
pub fn layer(layer: usize) -> TinySinkAttention<support::Dev> {
    let config = meta()["config"].clone();
    let window = match config["layer_types"][layer].as_str() {
        Some("sliding_attention") => config["sliding_window"].as_u64().map(|w| w as usize),
        _ => None,
    };
    let theta = config["rope_parameters"]["rope_theta"].as_f64().expect("rope_theta");
    let path = dir().join("sinks.safetensors");
    TinySinkAttention::load(&support::Dev::default(), &path, layer, window, theta)
        .unwrap_or_else(|e| panic!("{e} (regenerate with {GENERATOR})"))
}

/// Hugging Face's `what` for layer `layer`, which must have `shape`.
pub fn expected(layer: usize, what: &str, shape: &[usize]) -> Vec<f32> {
    let path = dir().join("sinks_expected.safetensors");
    Entries::read(&path)
        .and_then(|mut e| e.take(&format!("layer{layer}_{what}"), shape))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The input Hugging Face's layer took, `(1, 40, 64)`.
pub fn input(layer: usize) -> Tensor<(usize, usize, Const<64>), f32, support::Dev> {
    let dev = support::Dev::default();
    dev.tensor_from_vec(expected(layer, "input", &[SEQ_LEN, 64]), (1, SEQ_LEN, Const::<64>))
}

/// Each head's learned logit and the share of its weight that the last query (position 39)
/// gives its sink, on the chapter's code: `(sinks, shares)`.
pub fn last_query_shares(index: usize) -> (Vec<f32>, Vec<f32>) {
    let attention = layer(index);
    let (_, weights) = attention.forward(input(index));
    let shares = super::sink_share(weights).slice((.., .., SEQ_LEN - 1..)).as_vec();
    (attention.sinks.as_vec(), shares)
}

/// The share of the last query's weight that each head of layer `index` would give its sink if
/// every head's learned logit were `logit`: one logit, compared across the two layers.
pub fn last_query_shares_with(index: usize, logit: f32) -> Vec<f32> {
    let mut attention = layer(index);
    attention.sinks = attention.sinks.clone() * 0.0 + logit;
    let (_, weights) = attention.forward(input(index));
    super::sink_share(weights).slice((.., .., SEQ_LEN - 1..)).as_vec()
}

/// One layer's largest differences from Hugging Face: the output and weights of the whole
/// sequence, the output through the chapter's cache (24 tokens, then one at a time), and
/// Hugging Face's own cached output against its whole pass.
#[derive(Clone, Copy, Debug)]
pub struct Differences {
    pub output: f32,
    pub weights: f32,
    pub cached: f32,
    pub hf_cached: f32,
    /// Keys the chapter's cache holds after the 40 tokens.
    pub held: usize,
}

pub fn differences(index: usize) -> Differences {
    let (attention, x) = (layer(index), input(index));
    let (out, weights) = attention.forward(x.clone());
    let mut cache = attention.new_cache();
    let mut cached =
        attention.forward_cached(x.clone().slice((.., ..PREFIX, ..)), &mut cache).0.as_vec();
    for t in PREFIX..SEQ_LEN {
        cached.extend(
            attention.forward_cached(x.clone().slice((.., t..t + 1, ..)), &mut cache).0.as_vec(),
        );
    }
    let want = |what, shape: &[usize]| expected(index, what, shape);
    let hf_out = want("output", &[SEQ_LEN, 64]);
    Differences {
        output: max_abs_diff(&out.as_vec(), &hf_out),
        weights: max_abs_diff(&weights.as_vec(), &want("weights", &[4, SEQ_LEN, SEQ_LEN])),
        cached: max_abs_diff(&cached, &hf_out),
        hf_cached: max_abs_diff(&want("cached", &[SEQ_LEN, 64]), &hf_out),
        held: cache.len(),
    }
}

//! The chapter's model against Hugging Face's `DeepseekV3ForCausalLM` on the committed fixture
//! (`fixtures/make_mla.py`, transformers 5.24.0): the numbers the tests pin and the page prints.

use std::path::{Path, PathBuf};

use ch12_real_bert::load::Entries;
use serde_json::Value;
use support::max_abs_diff;

use super::model::Form;
use crate::config::{TinyMla, TINY_MLA};

const GENERATOR: &str = "python chapters/14-modern-attention/fixtures/make_mla.py";

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// `mla.json`: the generator's versions, the configuration and the input ids.
pub fn meta() -> Value {
    support::fixtures::load(&dir().join("mla.json").to_string_lossy(), GENERATOR)
}

/// The fixture's 40 token ids.
pub fn input_ids() -> Vec<usize> {
    let ids = meta()["input_ids"].as_array().cloned().unwrap_or_default();
    ids.iter().map(|t| t.as_u64().expect("a token id") as usize).collect()
}

/// The fixture's model on the chapter's code.
pub fn tiny_model() -> TinyMla<support::Dev> {
    let c = TINY_MLA;
    let path = dir().join("mla.safetensors");
    TinyMla::load(
        &support::Dev::default(),
        &path,
        c.num_hidden_layers,
        c.rms_norm_eps,
        c.rope_theta,
    )
    .unwrap_or_else(|e| panic!("{e} (regenerate with {GENERATOR})"))
}

/// Hugging Face's output `name`, which must have `shape`.
pub fn expected(name: &str, shape: &[usize]) -> Vec<f32> {
    let path = dir().join("mla_expected.safetensors");
    Entries::read(&path).and_then(|mut e| e.take(name, shape)).unwrap_or_else(|e| panic!("{e}"))
}

/// The largest differences from Hugging Face's numbers.
#[derive(Clone, Copy, Debug)]
pub struct Differences {
    /// The whole sequence in the plain form: logits, last hidden state, layer 0's weights.
    pub logits: f32,
    pub hidden: f32,
    pub weights: f32,
    /// 24 tokens at once, then one at a time through the latent cache, in each form.
    pub cached_expanded: f32,
    pub cached_absorbed: f32,
    pub cached_in_turn: f32,
    /// The same through a cache of expanded keys and values.
    pub cached_keys_values: f32,
    /// What layer 0's cache holds: the latent and the turned shared key.
    pub latent: f32,
    pub k_rot: f32,
    /// Bytes layer 0's cache holds for the 40 tokens: the latent cache, and the expanded keys
    /// and values.
    pub cache_bytes: usize,
    pub kv_cache_bytes: usize,
}

/// Hugging Face writes the turned key's pairs as all first halves, then all second halves; the
/// cache here keeps each pair together. The same key, in Hugging Face's order.
pub fn halves_first(k: &[f32], width: usize) -> Vec<f32> {
    (k.chunks(width))
        .flat_map(|row| row.iter().step_by(2).chain(row.iter().skip(1).step_by(2)).copied())
        .collect()
}

/// The fixture's first 24 tokens through `step` at once, then the other 16 one at a time: the
/// largest difference of all 40 positions' logits from Hugging Face's cached run.
fn stepwise(ids: &[usize], mut step: impl FnMut(&[usize]) -> Vec<f32>) -> f32 {
    let mut logits = step(&ids[..24]);
    for t in 24..ids.len() {
        logits.extend(step(&ids[t..t + 1]));
    }
    max_abs_diff(&logits, &expected("cached_logits", &[40, 96]))
}

/// Runs the fixture's 40 tokens every way and compares.
pub fn differences() -> Differences {
    let (model, ids) = (tiny_model(), input_ids());
    let pass = model.forward(&ids);
    let cached = |form| {
        let mut cache = model.new_cache();
        let d = stepwise(&ids, |new| model.forward_cached(new, &mut cache, form).as_vec());
        (d, cache)
    };
    let (cached_expanded, _) = cached(Form::Expanded);
    let (cached_in_turn, _) = cached(Form::AbsorbedInTurn);
    let (cached_absorbed, cache) = cached(Form::Absorbed);
    let mut kv_cache = model.new_kv_cache();
    let cached_keys_values =
        stepwise(&ids, |new| model.forward_kv_cached(new, &mut kv_cache).as_vec());
    let held = cache[0].held().expect("40 tokens held");
    Differences {
        logits: max_abs_diff(&pass.logits.as_vec(), &expected("logits", &[40, 96])),
        hidden: max_abs_diff(&pass.hidden.as_vec(), &expected("hidden", &[40, 64])),
        weights: max_abs_diff(&pass.weights[0].as_vec(), &expected("attention0", &[4, 40, 40])),
        cached_expanded,
        cached_absorbed,
        cached_in_turn,
        cached_keys_values,
        latent: max_abs_diff(&held.latent.as_vec(), &expected("latent0", &[40, 16])),
        k_rot: max_abs_diff(&halves_first(&held.k_rot.as_vec(), 8), &expected("k_rot0", &[40, 8])),
        cache_bytes: cache[0].bytes(),
        kv_cache_bytes: kv_cache[0].bytes(),
    }
}

//! Qwen3 and OLMo 2 on the chapter's code against Hugging Face's `Qwen3ForCausalLM` and
//! `Olmo2ForCausalLM` on the committed fixtures (`fixtures/make_qk_norm.py`, transformers 5.24.0).

use std::path::{Path, PathBuf};

use ch12_real_bert::load::Entries;
use serde_json::Value;
use support::max_abs_diff;

use super::{Family, TinyNormed};

const GENERATOR: &str = "python chapters/14-modern-attention/fixtures/make_qk_norm.py";

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// The fixture's file stem.
pub fn name(family: Family) -> &'static str {
    match family {
        Family::Qwen3 => "qwen3",
        Family::Olmo2 => "olmo2",
    }
}

/// `<name>.json`: the versions, the configuration and the input ids.
pub fn meta(family: Family) -> Value {
    support::fixtures::load(
        &dir().join(format!("{}.json", name(family))).to_string_lossy(),
        GENERATOR,
    )
}

/// The fixture's 40 token ids.
pub fn input_ids(family: Family) -> Vec<usize> {
    let ids = meta(family)["input_ids"].as_array().cloned().unwrap_or_default();
    ids.iter().map(|t| t.as_u64().expect("a token id") as usize).collect()
}

/// The fixture's model on the chapter's code.
pub fn tiny_model(family: Family) -> TinyNormed<support::Dev> {
    let path = dir().join(format!("{}.safetensors", name(family)));
    TinyNormed::load(&support::Dev::default(), &path, family, 2, 1e-6, 10_000.0)
        .unwrap_or_else(|e| panic!("{e} (regenerate with {GENERATOR})"))
}

/// Hugging Face's output `what`, which must have `shape`.
pub fn expected(family: Family, what: &str, shape: &[usize]) -> Vec<f32> {
    let path = dir().join(format!("{}_expected.safetensors", name(family)));
    Entries::read(&path).and_then(|mut e| e.take(what, shape)).unwrap_or_else(|e| panic!("{e}"))
}

/// The largest differences from Hugging Face's numbers: the whole sequence's logits, last
/// hidden state and layer 0's attention weights, and the logits through the cache (24 tokens at
/// once, then one at a time).
#[derive(Clone, Copy, Debug)]
pub struct Differences {
    pub logits: f32,
    pub hidden: f32,
    pub weights: f32,
    pub cached: f32,
}

pub fn differences(family: Family) -> Differences {
    let (model, ids) = (tiny_model(family), input_ids(family));
    let pass = model.forward(&ids);
    let mut cache = model.new_cache();
    let mut logits = model.forward_cached(&ids[..24], &mut cache).as_vec();
    for t in 24..ids.len() {
        logits.extend(model.forward_cached(&ids[t..t + 1], &mut cache).as_vec());
    }
    let want = |what, shape: &[usize]| expected(family, what, shape);
    Differences {
        logits: max_abs_diff(&pass.logits.as_vec(), &want("logits", &[40, 96])),
        hidden: max_abs_diff(&pass.hidden.as_vec(), &want("hidden", &[40, 64])),
        weights: max_abs_diff(&pass.weights[0].as_vec(), &want("attention0", &[4, 40, 40])),
        cached: max_abs_diff(&logits, &want("cached_logits", &[40, 96])),
    }
}

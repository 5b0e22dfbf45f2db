//! Parity with Hugging Face transformers' `LlamaForCausalLM`: the fixture's checkpoint loads by
//! its own names and gives the same logits and the same greedy text.

use ch10_language_models::llama::config::TINY;
use ch10_language_models::{generate, Recompute, Rope, RopeLayout, Sampling, TinyLlama};
use dfdx::prelude::*;
use serde_json::Value;

use crate::common::ids_tensor;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures");
const GENERATOR: &str = "python chapters/10-language-models/fixtures/generate_llama.py";

pub fn fixture() -> Value {
    support::fixtures::load(&format!("{DIR}/tiny_llama.json"), GENERATOR)
}

pub fn tiny_llama() -> TinyLlama<support::Dev> {
    let dev = support::Dev::default();
    TinyLlama::load(&dev, format!("{DIR}/tiny_llama.safetensors"), GENERATOR)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn ids(v: &Value, key: &str) -> Vec<usize> {
    v[key].as_array().unwrap().iter().map(|t| t.as_u64().unwrap() as usize).collect()
}

/// The fixture's sizes are the chapter's configuration, [`TINY`], field by field; its prompt
/// is the page's 8 tokens.
#[test]
fn fixture_config_is_tiny_llama() {
    let fx = fixture();
    let config = &fx["config"];
    for (key, want) in [
        ("vocab_size", TINY.vocab_size),
        ("hidden_size", TINY.hidden_size),
        ("num_attention_heads", TINY.num_attention_heads),
        ("num_key_value_heads", TINY.num_key_value_heads),
        ("head_dim", TINY.head_dim),
        ("intermediate_size", TINY.intermediate_size),
        ("num_hidden_layers", TINY.num_hidden_layers),
        ("max_position_embeddings", TINY.max_position_embeddings),
    ] {
        assert_eq!(config[key].as_u64(), Some(want as u64), "{key}");
    }
    assert_eq!(config["rope_theta"].as_f64(), Some(10_000.0));
    assert_eq!(config["rms_norm_eps"].as_f64(), Some(1e-5));
    assert_eq!(ids(&fx, "prompt").len(), 8, "the page's 8-token prompt");
    assert_eq!(ids(&fx, "greedy").len(), 32);
    assert_eq!(ids(&fx, "input_ids").len(), 24);
}

/// All 24 x 96 logits within 1e-5 of `LlamaForCausalLM`'s.
#[test]
fn logits_equal_hugging_face() {
    let fx = fixture();
    let model = tiny_llama();
    assert_eq!(model.rope, Rope::new(10_000.0, RopeLayout::HalfSplit));
    let dev = support::Dev::default();
    let logits = model.forward(ids_tensor(&dev, &ids(&fx, "input_ids"))).logits;
    assert_eq!(logits.shape().concrete(), [1, 24, 96]);
    let want = support::fixtures::floats(&fx, "logits");
    let diff = support::max_abs_diff(&logits.as_vec(), &want);
    assert!(diff < 1e-5, "largest difference {diff}");
}

/// `model.generate(prompt, do_sample=False, max_new_tokens=32)`'s tokens, with and without the
/// cache. The closest call along the way is 0.044 apart, far above f32 rounding.
#[test]
fn greedy_text_equals_hugging_face() {
    let fx = fixture();
    let model = tiny_llama();
    let want = ids(&fx, "greedy");
    assert!(fx["greedy_margin"].as_f64().unwrap() > 0.04);
    for recompute in [Recompute::NewTokenOnly, Recompute::Everything] {
        let got = generate(&model, &ids(&fx, "prompt"), 32, Sampling::Greedy, recompute);
        assert_eq!(got, want, "{recompute:?}");
    }
}

/// Hugging Face's `apply_rotary_pos_emb` at positions 3..8 is the half-split rotation.
#[test]
fn rope_equals_hugging_face() {
    let rope_fx = &fixture()["rope"];
    let positions: Vec<usize> = ids(rope_fx, "positions");
    assert_eq!(positions, [3, 4, 5, 6, 7]);
    let dev = support::Dev::default();
    let rope = Rope::new(10_000.0, RopeLayout::HalfSplit);
    let q = dev
        .tensor_from_vec(support::fixtures::floats(rope_fx, "q"), (1, Const::<4>, 5, Const::<16>));
    let k = dev
        .tensor_from_vec(support::fixtures::floats(rope_fx, "k"), (1, Const::<2>, 5, Const::<16>));
    support::assert_close(
        &rope.apply(q, 3).as_vec(),
        &support::fixtures::floats(rope_fx, "q_rotated"),
        1e-6,
    );
    support::assert_close(
        &rope.apply(k, 3).as_vec(),
        &support::fixtures::floats(rope_fx, "k_rotated"),
        1e-6,
    );
}

/// An id outside the vocabulary is an error naming it, not a panic deep in dfdx.
#[test]
fn out_of_vocabulary_id_is_an_error() {
    let model = tiny_llama();
    let dev = support::Dev::default();
    let err = model.try_forward(ids_tensor(&dev, &[3, 96])).unwrap_err();
    assert_eq!(err.to_string(), "token id 96 is outside the vocabulary of 96 ids (0..96)");
}

//! Converting query/key weights between the RoPE layouts: Hugging Face's conversion, and what
//! happens without it.

use ch10_language_models::llama::permute::{half_split_to_interleaved, interleaved_to_half_split};
use ch10_language_models::{Rope, RopeLayout};
use dfdx::prelude::*;

use crate::common::ids_tensor;
use crate::hf_parity::{fixture, tiny_llama};

/// Our permutation is `convert_llama_weights_to_hf.py`'s `permute`, for the query (4 heads) and
/// the key (2 heads) projections, and it has an inverse.
#[test]
fn permutation_is_hugging_faces() {
    let p = &fixture()["permute"];
    let f = |key| support::fixtures::floats(p, key);
    assert_eq!(interleaved_to_half_split(&f("meta_q"), 4, 64), f("hf_q"));
    assert_eq!(interleaved_to_half_split(&f("meta_k"), 2, 64), f("hf_k"));
    assert_eq!(half_split_to_interleaved(&f("hf_q"), 4, 64), f("meta_q"));
}

/// The checkpoint in Meta's layout (q/k rows permuted back) run with interleaved RoPE gives
/// Hugging Face's logits; run with the half-split RoPE without converting, it loads fine and
/// computes something else.
#[test]
fn a_checkpoint_runs_in_either_layout_only_when_converted() {
    let fx = fixture();
    let dev = support::Dev::default();
    let ids: Vec<usize> =
        fx["input_ids"].as_array().unwrap().iter().map(|t| t.as_u64().unwrap() as usize).collect();
    let want = support::fixtures::floats(&fx, "logits");

    let mut meta = tiny_llama();
    for layer in &mut meta.layers {
        let attn = &mut layer.self_attn;
        let q = half_split_to_interleaved(&attn.q_proj.weight.as_vec(), 4, 64);
        let k = half_split_to_interleaved(&attn.k_proj.weight.as_vec(), 2, 64);
        attn.q_proj.weight = dev.tensor_from_vec(q, (Const::<64>, Const::<64>));
        attn.k_proj.weight = dev.tensor_from_vec(k, (Const::<32>, Const::<64>));
    }
    meta.rope = Rope::new(10_000.0, RopeLayout::Interleaved);
    let converted = meta.forward(ids_tensor(&dev, &ids)).logits.as_vec();
    assert!(support::max_abs_diff(&converted, &want) < 1e-5);

    meta.rope = Rope::new(10_000.0, RopeLayout::HalfSplit); // the bug: Meta's rows, HF's pairs
    let wrong = meta.forward(ids_tensor(&dev, &ids)).logits.as_vec();
    assert!(support::max_abs_diff(&wrong, &want) > 0.1);
}

//! Grouped-query attention: multi-head attention when every query head has its own key/value
//! head, and multi-head attention with repeated key/value heads otherwise.

use ch01_attention::{broadcast_mask, causal_allowed};
use ch03_multi_head::Mha16x4;
use ch10_language_models::{GroupedQueryAttention, Rope, Window};
use dfdx::nn::BuildModule;
use dfdx::prelude::*;

type Dev = support::Dev;

/// With `KV = H` the layer is chapter 3's multi-head attention without biases: the same weights
/// give the same output and the same weights per head (RoPE aside: it is applied on top).
#[test]
fn one_key_value_head_per_query_head_is_chapter_3() {
    let dev = support::seeded_device(1);
    let gqa: GroupedQueryAttention<16, 4, 4, 4, 16, f32, Dev> = BuildModule::build(&dev);
    let mut mha = Mha16x4::<Dev>::new(&dev);
    for (lin, w) in [
        (&mut mha.w_q, &gqa.q_proj.weight),
        (&mut mha.w_k, &gqa.k_proj.weight),
        (&mut mha.w_v, &gqa.v_proj.weight),
        (&mut mha.w_o, &gqa.o_proj.weight),
    ] {
        lin.weight = w.clone();
        lin.bias = dev.zeros();
    }
    let n = 5;
    let x = support::normal_tensor(&dev, 2, (2, n, Const::<16>));
    let (q, k, v) = gqa.heads(x.clone());
    let (ours, our_weights) = gqa.attend(q, k, v, 0..n, 0..n, None);
    let mask = broadcast_mask(causal_allowed(&dev, n), 2, Const::<4>);
    let (theirs, their_weights) = mha.forward(x.clone(), x.clone(), x, Some(&mask));
    support::assert_close(&ours.as_vec(), &theirs.as_vec(), 1e-6);
    support::assert_close(&our_weights.as_vec(), &their_weights.as_vec(), 1e-6);
}

/// `KV` key/value heads shared by groups of `H / KV` query heads give what `H` key/value heads
/// give when key/value head `g` is copied to query heads `g * H/KV .. (g+1) * H/KV`
/// (`repeat_interleave`); copying them round-robin (`repeat`) gives another layer.
#[test]
fn grouped_heads_are_repeated_heads() {
    let dev = support::seeded_device(2);
    let gqa: GroupedQueryAttention<64, 4, 2, 16, 32, f32, Dev> = BuildModule::build(&dev);
    let expand = |w: &Tensor<Rank2<32, 64>, f32, Dev>, head_of: &dyn Fn(usize) -> usize| {
        let rows = w.as_vec();
        let mut out = Vec::new();
        for h in 0..4 {
            let g = head_of(h);
            out.extend_from_slice(&rows[g * 16 * 64..(g + 1) * 16 * 64]);
        }
        dev.tensor_from_vec(out, (Const::<64>, Const::<64>))
    };
    let with_heads = |head_of: &dyn Fn(usize) -> usize| {
        let mut mha: GroupedQueryAttention<64, 4, 4, 16, 64, f32, Dev> = BuildModule::build(&dev);
        mha.q_proj.weight = gqa.q_proj.weight.clone();
        mha.o_proj.weight = gqa.o_proj.weight.clone();
        mha.k_proj.weight = expand(&gqa.k_proj.weight, head_of);
        mha.v_proj.weight = expand(&gqa.v_proj.weight, head_of);
        mha
    };
    let rope = Rope::default();
    let x = support::normal_tensor(&dev, 3, (1, 6, Const::<64>));
    let grouped = gqa.forward(x.clone(), &rope, Window(None)).0.as_vec();
    let interleaved = with_heads(&|h| h / 2).forward(x.clone(), &rope, Window(None)).0.as_vec();
    let tiled = with_heads(&|h| h % 2).forward(x, &rope, Window(None)).0.as_vec();
    support::assert_close(&grouped, &interleaved, 1e-6);
    assert!(support::max_abs_diff(&grouped, &tiled) > 1e-2, "repeat would give the same layer");
}

/// Multi-query attention (one key/value head) runs, and every query head sees the same keys.
#[test]
fn multi_query_attention_shares_one_head() {
    let dev = support::seeded_device(4);
    let mqa: GroupedQueryAttention<64, 4, 1, 16, 16, f32, Dev> = BuildModule::build(&dev);
    let x = support::normal_tensor(&dev, 5, (1, 3, Const::<64>));
    let (_, k, _) = mqa.heads(x);
    let repeated = ch10_language_models::repeat_kv::<4, 1, 16, _, _>(k.clone()).as_vec();
    let one = k.as_vec();
    for head in repeated.chunks(one.len()) {
        assert_eq!(head, one.as_slice());
    }
}

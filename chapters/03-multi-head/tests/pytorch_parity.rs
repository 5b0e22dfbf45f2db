//! Parity with PyTorch's `nn.MultiheadAttention`: the same weights and inputs must give the same
//! outputs and per-head weights. The reference values are in `fixtures/mha_reference.json`, written
//! by `fixtures/generate_mha.py`.

use ch01_attention::{broadcast_mask, causal_allowed};
use ch03_multi_head::Mha16x4;
use dfdx::prelude::*;
use serde_json::Value;
use support::fixtures::{floats, size};
use support::{assert_close, Dev};

fn fixture() -> Value {
    support::fixtures::load(
        concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/mha_reference.json"),
        "fixtures/generate_mha.py",
    )
}

/// Our layer with PyTorch's weights: both store Linear weights as (out, in).
fn layer(dev: &Dev, f: &Value) -> Mha16x4<Dev> {
    assert_eq!(
        (size(f, "embed_dim"), size(f, "num_heads")),
        (16, 4),
        "fixture is for another layer size"
    );
    let mut mha = Mha16x4::new(dev);
    for (l, w, b) in [
        (&mut mha.w_q, "w_q", "b_q"),
        (&mut mha.w_k, "w_k", "b_k"),
        (&mut mha.w_v, "w_v", "b_v"),
        (&mut mha.w_o, "w_o", "b_o"),
    ] {
        l.weight = dev.tensor_from_vec(floats(f, w), (Const::<16>, Const::<16>));
        l.bias = dev.tensor_from_vec(floats(f, b), (Const::<16>,));
    }
    mha
}

#[test]
fn parity_with_pytorch_self_attention() {
    let dev = Dev::default();
    let f = fixture();
    let mha = layer(&dev, &f);
    let c = &f["self"];
    let (b, s) = (size(c, "batch"), size(c, "len"));
    let x = dev.tensor_from_vec(floats(c, "x"), (b, s, Const::<16>));
    let (out, w) = mha.self_attention(x, None);
    assert_close(&out.as_vec(), &floats(c, "output"), 1e-5);
    assert_close(&w.as_vec(), &floats(c, "weights"), 1e-5);
}

#[test]
fn parity_with_pytorch_cross_attention() {
    let dev = Dev::default();
    let f = fixture();
    let mha = layer(&dev, &f);
    let c = &f["cross"];
    let (b, sq, sk) = (size(c, "batch"), size(c, "q_len"), size(c, "kv_len"));
    let q = dev.tensor_from_vec(floats(c, "query"), (b, sq, Const::<16>));
    let k = dev.tensor_from_vec(floats(c, "key"), (b, sk, Const::<16>));
    let v = dev.tensor_from_vec(floats(c, "value"), (b, sk, Const::<16>));
    let (out, w) = mha.forward(q, k, v, None);
    assert_close(&out.as_vec(), &floats(c, "output"), 1e-5);
    assert_close(&w.as_vec(), &floats(c, "weights"), 1e-5);
}

#[test]
fn parity_with_pytorch_causal_mask() {
    let dev = Dev::default();
    let f = fixture();
    let mha = layer(&dev, &f);
    let c = &f["masked"];
    let (b, s) = (size(c, "batch"), size(c, "len"));
    let x = dev.tensor_from_vec(floats(c, "x"), (b, s, Const::<16>));
    // PyTorch's mask says True = blocked (triu, diagonal 1); ours says true = allowed (tril)
    let mask = broadcast_mask(causal_allowed(&dev, s), b, Const::<4>);
    let (out, w) = mha.self_attention(x, Some(&mask));
    assert_close(&out.as_vec(), &floats(c, "output"), 1e-5);
    assert_close(&w.as_vec(), &floats(c, "weights"), 1e-5);
}

#[test]
fn parity_with_pytorch_parameter_counts() {
    let f = fixture();
    let counts = &f["param_counts"];
    assert_eq!(counts["nn.MultiheadAttention(64, 8)"].as_u64(), Some(16_640));
    assert_eq!(counts["nn.MultiheadAttention(64, 4)"].as_u64(), Some(16_640));
}

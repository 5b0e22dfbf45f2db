//! Every number chapter 3 of the book shows, asserted.

use ch03_multi_head::{average_heads, split_heads, MultiHeadAttention};
use dfdx::nn::{builders, DeviceBuildExt, Module, NumParams};
use dfdx::prelude::*;
use support::{assert_close, round_to};

#[test]
fn worked_example_parameter_count() {
    let dev = support::Dev::default();
    // 4 projections of 64 x 64 weights plus 64 biases each
    assert_eq!(4 * 64 * 64 + 4 * 64, 16_640);
    assert_eq!(MultiHeadAttention::<64, 8, 8, f32, _>::new(&dev).num_trainable_params(), 16_640);
    // the number of heads does not change the count: the heads share the projections
    assert_eq!(MultiHeadAttention::<64, 4, 16, f32, _>::new(&dev).num_trainable_params(), 16_640);
    // dfdx's built-in layer has the same parameters
    let builtin = dev.build_module::<builders::MultiHeadAttention<64, 8>, f32>();
    assert_eq!(builtin.num_trainable_params(), 16_640);
}

#[test]
fn worked_example_four_heads_of_sixteen() {
    let dev = support::Dev::default();
    // d_model 64, 4 heads: each head sees 16 consecutive features of every token
    let values: Vec<f32> = (0..2 * 3 * 64).map(|i| i as f32).collect();
    let x = dev.tensor_from_vec(values.clone(), (2, 3, Const::<64>));
    let heads = split_heads::<_, _, 64, 4, 16, _, _>(x);
    assert_eq!(heads.shape().concrete(), [2, 4, 3, 16]);
    let h = heads.as_vec();
    for b in 0..2 {
        for head in 0..4 {
            for s in 0..3 {
                for d in 0..16 {
                    let got = h[((b * 4 + head) * 3 + s) * 16 + d];
                    let want = values[(b * 3 + s) * 64 + head * 16 + d];
                    assert_eq!(got, want, "b {b} head {head} seq {s} dim {d}");
                }
            }
        }
    }
}

#[test]
fn worked_example_mha_demo() {
    let dev = support::seeded_device(0);
    let mha = MultiHeadAttention::<64, 8, 8, f32, _>::new(&dev);
    let x = dev.tensor_from_vec(support::normal_vec(1, 2 * 10 * 64), (2, 10, Const::<64>));
    let (out, w) = mha.self_attention(x, None);
    assert_eq!(out.shape().concrete(), [2, 10, 64]);
    assert_eq!(w.shape().concrete(), [2, 8, 10, 10]);
    assert_close(&w.clone().sum::<_, Axis<3>>().as_vec(), &[1.0; 160], 1e-5);
}

#[test]
fn worked_example_builtin_weights() {
    let dev = support::seeded_device(0);
    let builtin = dev.build_module::<builders::MultiHeadAttention<64, 8>, f32>();
    let x = dev.tensor_from_vec(support::normal_vec(1, 2 * 10 * 64), (2, 10, Const::<64>));
    let ours = MultiHeadAttention::<64, 8, 8, f32, _>::from(&builtin);
    let (out, w) = ours.self_attention(x.clone(), None);
    let w = average_heads(w);
    assert_eq!(w.shape().concrete(), [2, 10, 10]);
    let row0: Vec<f32> = w.as_vec()[..10].iter().map(|&v| round_to(v, 3)).collect();
    assert_eq!(row0, vec![0.109, 0.110, 0.102, 0.080, 0.106, 0.096, 0.106, 0.094, 0.073, 0.124]);
    assert_close(&w.sum::<_, Axis<2>>().as_vec(), &[1.0; 20], 1e-5);
    let theirs = builtin.forward((x.clone(), x.clone(), x));
    // the example prints "within 1e-6: true"
    assert!(support::max_abs_diff(&out.as_vec(), &theirs.as_vec()) < 1e-6);
}

#[test]
fn worked_example_self_vs_cross() {
    let dev = support::seeded_device(0);
    let mha = MultiHeadAttention::<64, 8, 8, f32, _>::new(&dev);
    let enc_in = dev.tensor_from_vec(support::normal_vec(1, 2 * 10 * 64), (2, 10, Const::<64>));
    let (self_out, self_w) = mha.self_attention(enc_in, None);
    assert_eq!(self_out.shape().concrete(), [2, 10, 64]);
    assert_eq!(self_w.shape().concrete(), [2, 8, 10, 10]);
    let dec = dev.tensor_from_vec(support::normal_vec(2, 2 * 8 * 64), (2, 8, Const::<64>));
    let enc = dev.tensor_from_vec(support::normal_vec(3, 2 * 10 * 64), (2, 10, Const::<64>));
    let (out, w) = mha.forward(dec, enc.clone(), enc, None);
    assert_eq!(out.shape().concrete(), [2, 8, 64]);
    assert_eq!(w.shape().concrete(), [2, 8, 8, 10]);
    let avg = average_heads(w);
    assert_eq!(avg.shape().concrete(), [2, 8, 10]);
    // each of the 8 decoder positions spreads exactly 1.0 over the 10 encoder positions
    assert_close(&avg.sum::<_, Axis<2>>().as_vec(), &[1.0; 16], 1e-5);
}

#[test]
fn parity_with_dfdx_cross_attention() {
    let dev = support::seeded_device(3);
    let builtin = dev.build_module::<builders::MultiHeadAttention<16, 4>, f32>();
    let ours = MultiHeadAttention::<16, 4, 4, f32, _>::from(&builtin);
    let q = dev.tensor_from_vec(support::normal_vec(5, 3 * 5 * 16), (3, 5, Const::<16>));
    let kv = dev.tensor_from_vec(support::normal_vec(6, 3 * 7 * 16), (3, 7, Const::<16>));
    let theirs = builtin.forward((q.clone(), kv.clone(), kv.clone()));
    let (out, _) = ours.forward(q, kv.clone(), kv, None);
    assert_close(&out.as_vec(), &theirs.as_vec(), 1e-5);
}

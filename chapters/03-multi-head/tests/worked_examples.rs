//! Every number chapter 3 of the book shows, asserted.

use ch03_multi_head::{average_heads, split_heads, Mha16x4, Mha64x4, Mha64x8};
use dfdx::nn::{builders, DeviceBuildExt, Module, NumParams};
use dfdx::prelude::*;
use support::fmt::round_all as rounded;
use support::{assert_close, normal_tensor};

#[test]
fn worked_example_parameter_count() {
    let dev = support::Dev::default();
    // 4 projections of 64 x 64 weights plus 64 biases each
    assert_eq!(4 * 64 * 64 + 4 * 64, 16_640);
    assert_eq!(4 * 64 * 64, 16_384);
    assert_eq!(4 * 64, 256);
    assert_eq!(Mha64x8::new(&dev).num_trainable_params(), 16_640);
    // the number of heads does not change the count: the heads share the projections
    assert_eq!(Mha64x4::new(&dev).num_trainable_params(), 16_640);
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
    let heads = split_heads(x, (Const::<4>, Const::<16>));
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
    // head h holds features 16h .. 16h + 15: token 0 of head 1 starts with feature 16
    assert_eq!(h[3 * 16], 16.0);
    assert_eq!(h[3 * 16 + 15], 31.0);
    // with 8 heads, each gets 8 features
    let x = dev.tensor_from_vec(values, (2, 3, Const::<64>));
    let eight = split_heads(x, (Const::<8>, Const::<8>));
    assert_eq!(eight.shape().concrete(), [2, 8, 3, 8]);
}

/// The pitfall: reshaping `(batch, seq, d_model)` straight to `(batch, heads, seq, d_k)` (PyTorch's
/// `.view(b, h, -1, d_k)`) has the right shape but puts consecutive slices of the *first* token
/// into one head's "tokens".
#[test]
fn reshaping_without_the_permutation_mixes_tokens() {
    let dev = support::Dev::default();
    let values: Vec<f32> = (0..2 * 3 * 64).map(|i| i as f32).collect();
    let x = dev.tensor_from_vec(values, (2, 3, Const::<64>));
    let right = split_heads(x.clone(), (Const::<4>, Const::<16>));
    let wrong = x.reshape_like(&(2, Const::<4>, 3, Const::<16>));
    assert_eq!(wrong.shape().concrete(), right.shape().concrete());
    let (right, wrong) = (right.as_vec(), wrong.as_vec());
    // the first head (index 0), "token" 1: features 16..31 of token 0 instead of features 0..15 of token 1
    assert_eq!(right[16], 64.0);
    let features_16_to_31: Vec<f32> = (16..32).map(|i| i as f32).collect();
    assert_eq!(&wrong[16..32], &features_16_to_31[..]);
    assert_ne!(right, wrong);
}

#[test]
fn worked_example_mha_demo() {
    let dev = support::seeded_device(0);
    let mha = Mha64x8::new(&dev);
    let x = normal_tensor(&dev, 1, (2, 10, Const::<64>));
    let (out, w) = mha.self_attention(x, None);
    assert_eq!(out.shape().concrete(), [2, 10, 64]);
    assert_eq!(w.shape().concrete(), [2, 8, 10, 10]);
    assert_eq!(mha.num_trainable_params(), 16_640);
    // the numbers the example prints
    let (out, w) = (out.as_vec(), w.as_vec());
    assert_eq!(rounded(&out[..4], 4), vec![0.1385, 0.0264, 0.1217, 0.0024]);
    assert_eq!(rounded(&w[..5], 3), vec![0.122, 0.107, 0.164, 0.076, 0.089]);
    for row in w.chunks(10) {
        assert_close(&[row.iter().sum::<f32>()], &[1.0], 1e-5);
    }
    // 8 maps of 10 x 10 weights per sequence: h n^2 = 800 numbers, against 100 for one head
    assert_eq!(w.len() / 2, 8 * 10 * 10);
}

#[test]
fn worked_example_builtin_weights() {
    let dev = support::seeded_device(0);
    let builtin = dev.build_module::<builders::MultiHeadAttention<64, 8>, f32>();
    let x = normal_tensor(&dev, 1, (2, 10, Const::<64>));
    let ours = Mha64x8::from(&builtin);
    let (out, w) = ours.self_attention(x.clone(), None);
    let w = average_heads(w);
    assert_eq!(w.shape().concrete(), [2, 10, 10]);
    let row0 = rounded(&w.as_vec()[..10], 3);
    assert_eq!(row0, vec![0.109, 0.110, 0.102, 0.080, 0.106, 0.096, 0.106, 0.094, 0.073, 0.124]);
    // untrained: every averaged weight is within 0.05 of 1/10
    assert!(w.as_vec().iter().all(|&a| (a - 0.1).abs() < 0.05), "{:?}", w.as_vec());
    assert_close(&w.sum::<_, Axis<2>>().as_vec(), &[1.0; 20], 1e-5);
    let theirs = builtin.forward((x.clone(), x.clone(), x));
    // the example prints "within 1e-6: true"
    assert!(support::max_abs_diff(&out.as_vec(), &theirs.as_vec()) < 1e-6);
}

#[test]
fn worked_example_self_vs_cross() {
    let dev = support::seeded_device(0);
    let mha = Mha64x8::new(&dev);
    let enc_in = normal_tensor(&dev, 1, (2, 10, Const::<64>));
    let (self_out, self_w) = mha.self_attention(enc_in, None);
    assert_eq!(self_out.shape().concrete(), [2, 10, 64]);
    assert_eq!(self_w.shape().concrete(), [2, 8, 10, 10]);
    let dec = normal_tensor(&dev, 2, (2, 8, Const::<64>));
    let enc = normal_tensor(&dev, 3, (2, 10, Const::<64>));
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
    let ours = Mha16x4::from(&builtin);
    let q = normal_tensor(&dev, 5, (3, 5, Const::<16>));
    let kv = normal_tensor(&dev, 6, (3, 7, Const::<16>));
    let theirs = builtin.forward((q.clone(), kv.clone(), kv.clone()));
    let (out, _) = ours.forward(q, kv.clone(), kv, None);
    assert_close(&out.as_vec(), &theirs.as_vec(), 1e-5);
}

#[test]
fn worked_example_heads_differ() {
    // the layer and input of `figures::per_head`: width 16, 4 heads, six seeded tokens
    let dev = support::seeded_device(0);
    let mha = Mha16x4::new(&dev);
    let x = normal_tensor(&dev, 7, (1, 6, Const::<16>));
    let (_, w) = mha.self_attention(x, None);
    assert_eq!(w.shape().concrete(), [1, 4, 6, 6]);
    let w = w.as_vec();
    for row in w.chunks(6) {
        assert_close(&[row.iter().sum::<f32>()], &[1.0], 1e-5);
    }
    let heads: Vec<&[f32]> = w.chunks(36).collect();
    for a in 0..4 {
        for b in a + 1..4 {
            let diff = support::max_abs_diff(heads[a], heads[b]);
            assert!(diff > 0.01, "heads {a} and {b} differ by only {diff}");
        }
    }
}

//! Every number chapter 1 of the book shows, asserted.

#![allow(
    clippy::approx_constant,
    reason = "the book prints e^1 = 2.718 and a weight of 0.318; the numbers are the point"
)]

use ch01_attention::weightless::{tokens, EMBEDDINGS, WORKED_TOKENS};
use ch01_attention::{
    attention_with_fill, broadcast_mask, causal_allowed, scaled_dot_product_attention, scaling,
    simple_self_attention,
};
use dfdx::prelude::*;
use support::fmt::round_all as rounded;
use support::{assert_close, round_to, Dev};

#[test]
fn worked_example_three_tokens() {
    let dev = Dev::default();
    let att = simple_self_attention(&tokens(&dev, &WORKED_TOKENS));
    let scores = att.scores.as_vec();
    // step 1: omega_10, omega_11 = 0.64 + 0.36, omega_12
    assert_close(&scores[3..6], &[0.80, 1.00, 0.60], 1e-6);
    assert_close(&[0.8f32 * 0.8, 0.6 * 0.6], &[0.64, 0.36], 1e-7);
    // step 2: the exponentials and their sum as the prose rounds them
    let exps: Vec<f32> = scores[3..6].iter().map(|s| s.exp()).collect();
    assert_eq!(rounded(&exps, 3), vec![2.226, 2.718, 1.822]);
    assert_eq!(round_to(exps.iter().sum(), 3), 6.766);
    // the weights: rounded as printed, and exactly
    let w = att.weights.as_vec();
    assert_eq!(rounded(&w[3..6], 3), vec![0.329, 0.402, 0.269]);
    assert_close(&w[3..6], &[0.328_932_9, 0.401_759_6, 0.269_307_5], 1e-6);
    assert_close(&[w[3..6].iter().sum::<f32>()], &[1.0], 1e-6);
    // step 3: the contributions of each token to z1, from the rounded weights
    let (a0, a1, a2) = (0.329f32, 0.402f32, 0.269f32);
    assert_eq!(rounded(&[a0 * 1.0, a0 * 0.0], 3), vec![0.329, 0.000]);
    assert_eq!(rounded(&[a1 * 0.8, a1 * 0.6], 3), vec![0.322, 0.241]);
    assert_eq!(rounded(&[a2 * 0.0, a2 * 1.0], 3), vec![0.000, 0.269]);
    // z1 as the prose computes it: the rounded weights give 0.651 (0.6506) in the first coordinate
    let z_from_rounded = [a0 * 1.0 + a1 * 0.8 + a2 * 0.0, a0 * 0.0 + a1 * 0.6 + a2 * 1.0];
    assert_eq!(rounded(&z_from_rounded, 3), vec![0.651, 0.510]);
    assert_eq!(round_to(z_from_rounded[0], 4), 0.6506);
    // ... while the exact weights give 0.650 (0.6503): 0.6503406 rounds down
    let z = att.context.as_vec();
    assert_close(&z[2..4], &[0.650_340_6, 0.510_363_2], 1e-6);
    assert_eq!(rounded(&z[2..4], 3), vec![0.650, 0.510]);
    assert_eq!(round_to(z[2], 4), 0.6503);
    // both coordinates came down from x1 = [0.8, 0.6]: z1 is shorter (0.827 against 1) and turned
    // by about 1.3 degrees towards x2
    assert!(z[2] < 0.8 && z[3] < 0.6);
    assert_eq!(round_to(z[2].hypot(z[3]), 3), 0.827);
    let turn = z[3].atan2(z[2]).to_degrees() - 0.6f32.atan2(0.8).to_degrees();
    assert_eq!(round_to(turn, 1), 1.3);
    // x0 and x2 are perpendicular: the lowest score of the example ...
    assert_eq!(scores[2], 0.0);
    assert_eq!(scores[6], 0.0);
    assert!(scores.iter().all(|&s| s >= 0.0));
    // ... but a zero score is a weight of e^0 / (e^1 + e^0.8 + e^0), not zero
    let by_hand = 1.0 / (1f32.exp() + 0.8f32.exp() + 1.0);
    assert_close(&[w[2]], &[by_hand], 1e-6);
    assert_eq!(round_to(w[2], 3), 0.168);
}

#[test]
fn worked_example_the_cat_sat_down() {
    let dev = Dev::default();
    let att = simple_self_attention(&tokens(&dev, &EMBEDDINGS));
    #[rustfmt::skip]
    let scores = [
        0.9995, 0.9544, 0.9422, 0.4753,
        0.9544, 1.4950, 1.4754, 0.8434,
        0.9422, 1.4754, 1.4570, 0.8296,
        0.4753, 0.8434, 0.8296, 0.4937,
    ];
    assert_close(&att.scores.as_vec(), &scores, 1e-6);
    #[rustfmt::skip]
    let weights = [
        0.286, 0.274, 0.270, 0.170,
        0.189, 0.324, 0.318, 0.169,
        0.190, 0.323, 0.317, 0.170,
        0.205, 0.296, 0.292, 0.208,
    ];
    let w = att.weights.as_vec();
    assert_eq!(rounded(&w, 3), weights.to_vec());
    // exact values of the two weights the prose singles out
    assert_close(&[w[6], w[7]], &[0.317_94, 0.168_993_9], 1e-6);
    let sums = att.weights.clone().sum::<_, Axis<1>>();
    assert_close(&sums.as_vec(), &[1.0; 4], 1e-6);
    #[rustfmt::skip]
    let context = [
        0.465, 0.609, 0.665,
        0.478, 0.679, 0.641,
        0.478, 0.678, 0.641,
        0.463, 0.656, 0.632,
    ];
    assert_eq!(rounded(&att.context.as_vec(), 3), context.to_vec());
    // "cat" gives almost twice as much weight to "sat" as to "down"
    assert!(w[6] > w[7]);
    assert_eq!(round_to(w[6] / w[7], 1), 1.9);
    // the top-left score: 0.43^2 + 0.15^2 + 0.89^2 = 0.9995 exactly, stored in f32 as 0.99949998,
    // which rounds to 0.999 with three decimals
    let exact = 0.43f64.powi(2) + 0.15f64.powi(2) + 0.89f64.powi(2);
    assert!((exact - 0.9995).abs() < 1e-12);
    let s = att.scores.as_vec();
    if support::ON_GPU {
        // cuBLAS adds the three products with fused multiply-adds, which round at other points:
        // an H100 gave one f32 step lower, 0.99949992, which rounds to the same 0.999
        assert!((s[0] - 0.9995f32).abs() <= f32::EPSILON, "{}", s[0]);
    } else {
        assert_eq!(s[0], 0.9995f32);
        assert_eq!(format!("{:.8}", s[0]), "0.99949998");
    }
    assert!((s[0] as f64) < 0.9995, "the stored value is just below 0.9995, so it rounds down");
    assert!(support::format_tensor(&att.scores, 3).starts_with("[[0.999, "));
    // a dot product grows with length: "down", the shortest vector, scores "cat" (0.843) and
    // "sat" (0.830) above itself (0.494) and gives them more weight; "sat" too scores "cat" above
    // itself (1.475 against 1.457)
    assert_eq!(rounded(&[s[13], s[14], s[15]], 3), vec![0.843, 0.830, 0.494]);
    assert!(s[13] > s[15] && s[14] > s[15]);
    assert!(w[13] > w[15] && w[14] > w[15]);
    assert_eq!(rounded(&[s[9], s[10]], 3), vec![1.475, 1.457]);
    assert!(s[9] > s[10]);
    let norm = |x: &[f32; 3]| x.iter().map(|v| v * v).sum::<f32>();
    let shortest = (0..4).min_by(|&a, &b| norm(&EMBEDDINGS[a]).total_cmp(&norm(&EMBEDDINGS[b])));
    assert_eq!(shortest, Some(3));
}

#[test]
fn worked_example_look_ahead_mask() {
    let dev = Dev::default();
    // the weights of the figure: "The cat sat down" attending to itself with the look-ahead mask
    let x = tokens(&dev, &EMBEDDINGS).reshape_like(&(1, Const::<1>, 4, Const::<3>));
    let mask = broadcast_mask(causal_allowed(&dev, 4), 1, Const::<1>);
    let (_, w) = scaled_dot_product_attention(x.clone(), x.clone(), x, Some(&mask));
    let w = w.as_vec();
    for i in 0..4 {
        for j in i + 1..4 {
            assert_eq!(w[i * 4 + j], 0.0, "query {i} sees key {j} of the future");
        }
        assert_close(&[w[i * 4..i * 4 + 4].iter().sum::<f32>()], &[1.0], 1e-6);
    }
    // "The" sees only itself
    assert_eq!(&w[..4], &[1.0, 0.0, 0.0, 0.0]);
}

#[test]
fn worked_example_batched_shapes() {
    let dev = Dev::default();
    let shape = (2, Const::<1>, 5, Const::<16>);
    let q = support::normal_tensor(&dev, 1, shape);
    let k = support::normal_tensor(&dev, 2, shape);
    let v = support::normal_tensor(&dev, 3, shape);
    let (out, w) = scaled_dot_product_attention(q, k, v.clone(), None);
    assert_eq!(out.shape().concrete(), [2, 1, 5, 16]);
    assert_eq!(w.shape().concrete(), [2, 1, 5, 5]);
    assert_close(&w.clone().sum::<_, Axis<3>>().as_vec(), &[1.0; 10], 1e-6);
    // the output really is weights x values: check one entry by hand
    let (wv, vv, ov) = (w.as_vec(), v.as_vec(), out.as_vec());
    let by_hand: f32 = (0..5).map(|j| wv[j] * vv[j * 16]).sum();
    assert_close(&[ov[0]], &[by_hand], 1e-5);
}

#[test]
fn worked_example_why_scaling() {
    let dev = Dev::default();
    let exp = scaling::run::<512, _>(&dev, 8, 42);
    let (u, s) = (exp.unscaled(), exp.scaled());
    // unscaled: std ~ sqrt(512) = 22.6, and softmax is (nearly) one-hot
    assert_eq!(round_to(u.score_std, 2), 23.77);
    assert_eq!(round_to(u.score_max_abs, 2), 65.13);
    assert_eq!(round_to(u.mean_max_weight, 3), 0.994);
    assert_eq!(u.saturated_rows, 0.75);
    // scaled: std ~ 1, and no row is saturated
    assert_eq!(round_to(s.score_std, 2), 1.05);
    assert_eq!(round_to(s.score_max_abs, 2), 2.88);
    assert_eq!(round_to(s.mean_max_weight, 3), 0.404);
    assert_eq!(s.saturated_rows, 0.0);
    // dividing by sqrt(512) divides every score by 22.627
    assert_close(&[u.score_std / s.score_std], &[512f32.sqrt()], 1e-3);
    let (raw, scaled) = exp.row(0);
    assert_eq!(rounded(raw, 3), vec![0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
    assert_eq!(rounded(scaled, 3), vec![0.045, 0.026, 0.012, 0.112, 0.187, 0.382, 0.114, 0.122]);
    // the prose: sqrt(512) is about 22.6 (22.63); two scores of one query differ with standard
    // deviation sqrt(2 * 512) = 32, and e^32 is about 7.9e13
    assert_eq!(round_to(512f32.sqrt(), 1), 22.6);
    assert_eq!(round_to(512f32.sqrt(), 2), 22.63);
    assert_eq!((2.0f32 * 512.0).sqrt(), 32.0);
    assert_eq!(round_to((32f64.exp() / 1e13) as f32, 1), 7.9);
    // six of the eight rows are saturated unscaled; scaled, the largest weight averages 0.40
    assert_eq!(u.saturated_rows * 8.0, 6.0);
    assert_eq!(round_to(s.mean_max_weight, 2), 0.40);
    // scaled, every key of row 0 gets at least 1 % of the weight
    assert!(scaled.iter().all(|&w| w >= 0.01), "{scaled:?}");
}

/// One query, or three keys and values, of `d_k = 4`: `(batch, heads, seq, d_k)`.
type Qkv = Tensor<(usize, Const<1>, usize, Const<4>), f32, Dev>;

fn one_query_three_keys(dev: &Dev) -> (Qkv, Qkv) {
    let q = dev.tensor_from_vec(vec![1.0, 0.0, 0.5, 0.5], (1, Const::<1>, 1, Const::<4>));
    let kv = dev.tensor_from_vec(
        vec![0.3, 0.1, 0.0, 0.2, -0.5, 0.4, 0.9, 0.0, 0.0, 0.7, 0.2, 0.1],
        (1, Const::<1>, 3, Const::<4>),
    );
    (q, kv)
}

#[test]
fn worked_example_fully_masked_row() {
    let dev = Dev::default();
    let (q, kv) = one_query_three_keys(&dev);
    let blocked = dev.zeros_like(&(1, Const::<1>, 1, 3)).gt(0.5);
    // -1e9: every score becomes -1e9, so the row is uniform and the output is the mean value
    let (out, w) = attention_with_fill(q.clone(), kv.clone(), kv.clone(), Some(&blocked), -1e9);
    assert_close(&w.as_vec(), &[1.0 / 3.0; 3], 1e-6);
    assert_close(&out.as_vec(), &[-0.2 / 3.0, 1.2 / 3.0, 1.1 / 3.0, 0.3 / 3.0], 1e-6);
    // -1e10 (another common fill) does exactly the same in f32
    let (out10, w10) =
        attention_with_fill(q.clone(), kv.clone(), kv.clone(), Some(&blocked), -1e10);
    assert_eq!(w10.as_vec(), w.as_vec());
    assert_eq!(out10.as_vec(), out.as_vec());
    assert_eq!(round_to(w.as_vec()[0], 4), 0.3333);
    // -inf: exp(-inf - (-inf)) is NaN, and NaN is everywhere in the row
    let (out, w) = attention_with_fill(q, kv.clone(), kv, Some(&blocked), f32::NEG_INFINITY);
    assert!(w.as_vec().iter().all(|x| x.is_nan()));
    assert!(out.as_vec().iter().all(|x| x.is_nan()));
}

#[test]
fn worked_example_masked_keys_get_zero_weight() {
    let dev = Dev::default();
    let (q, kv) = one_query_three_keys(&dev);
    let allowed = dev.tensor_from_vec(vec![1.0, 0.0, 1.0], (1, Const::<1>, 1, 3)).gt(0.5);
    for fill in [-1e9, -1e10, f32::NEG_INFINITY] {
        let (_, w) = attention_with_fill(q.clone(), kv.clone(), kv.clone(), Some(&allowed), fill);
        let w = w.as_vec();
        assert_eq!(w[1], 0.0, "fill {fill}: the blocked key must get exactly zero weight");
        // the two open keys share the mass as if the blocked one did not exist
        let s0 = (1.0 * 0.3 + 0.5 * 0.0 + 0.5 * 0.2) / 2.0f32;
        let s2 = (1.0 * 0.0 + 0.5 * 0.2 + 0.5 * 0.1) / 2.0f32;
        let p0 = 1.0 / (1.0 + (s2 - s0).exp());
        assert_close(&w, &[p0, 0.0, 1.0 - p0], 1e-6);
    }
}

//! Every number chapter 2 of the book shows, asserted.

use ch01_attention::simple_self_attention;
use ch02_qkv::{bank_loan, tokens, Qkv3To2, QkvAttention, EMBEDDINGS};
use dfdx::prelude::*;
use support::fmt::round_all as rounded;
use support::{assert_close, round_to, Dev};

#[test]
fn worked_example_bank_loan() {
    let dev = Dev::default();
    let x = tokens(&dev, &bank_loan::X);
    let out = bank_loan::layer(&dev).forward(x.clone());
    // steps 1-3: q0, q1, k0, k1, v0, v1
    assert_close(&out.q.as_vec(), &[1.0, 0.5, 0.2, 0.9], 1e-6);
    assert_close(&out.k.as_vec(), &[0.5, 1.0, 0.9, 0.2], 1e-6);
    assert_close(&out.v.as_vec(), &[2.0, 1.0, 0.4, 1.8], 1e-6);
    // step 4: both dot products of "bank" are 1.00, and both scores 1.00 / sqrt(2)
    let (q, k) = (out.q.as_vec(), out.k.as_vec());
    assert_close(&[q[0] * k[0] + q[1] * k[1], q[0] * k[2] + q[1] * k[3]], &[1.0, 1.0], 1e-6);
    let s = out.scores.as_vec();
    assert_eq!(round_to(2f32.sqrt(), 3), 1.414);
    assert_eq!(rounded(&s[..2], 3), vec![0.707, 0.707]);
    assert_close(&s[..2], &[std::f32::consts::FRAC_1_SQRT_2; 2], 1e-6);
    // step 5: e^0.707 and the row sum, then equal weights
    assert_eq!(round_to(s[0].exp(), 3), 2.028);
    assert_eq!(round_to(s[0].exp() + s[1].exp(), 3), 4.056);
    let w = out.weights.as_vec();
    assert_close(&w[..2], &[0.5, 0.5], 1e-6);
    // step 6: z0 = 0.5 v0 + 0.5 v1 = [1.00, 0.50] + [0.20, 0.90]
    let (v, z) = (out.v.as_vec(), out.output.as_vec());
    assert_close(&[0.5 * v[0], 0.5 * v[1], 0.5 * v[2], 0.5 * v[3]], &[1.0, 0.5, 0.2, 0.9], 1e-6);
    assert_close(&z[..2], &[1.2, 1.4], 1e-6);
    // z0 lies half way from bank's value v0 to loan's value v1
    assert_close(&[z[0] - v[0], z[1] - v[1]], &[-0.8, 0.4], 1e-6);
    assert_close(&[v[2] - v[0], v[3] - v[1]], &[-1.6, 0.8], 1e-6);
    // the second row, which the example program also prints
    assert_eq!(rounded(&s[2..], 3), vec![0.707, 0.255]);
    assert_eq!(rounded(&w[2..], 2), vec![0.61, 0.39]);
    assert_eq!(rounded(&z[2..], 2), vec![1.38, 1.31]);
    // without projections: "bank" scores itself 1.25 and "loan" 0.65, because "loan" is shorter
    let shared = simple_self_attention(&x).scores.as_vec();
    assert_close(&shared[..2], &[1.25, 0.65], 1e-6);
    assert!(shared[3] < shared[0], "|loan|^2 < |bank|^2");
    // ... while in chapter 1's sentence "down", the shortest token, scores "cat" (0.843) and "sat"
    // (0.830) above itself (0.494)
    let sentence = simple_self_attention(&tokens(&dev, &EMBEDDINGS)).scores.as_vec();
    assert_eq!(rounded(&sentence[13..16], 3), vec![0.843, 0.830, 0.494]);
    assert!(sentence[13] > sentence[15] && sentence[14] > sentence[15]);
    assert!((0..3).all(|i| sentence[i * 5] > sentence[15]), "down is the shortest token");
}

#[test]
fn worked_example_learned_projections() {
    let dev = support::seeded_device(0);
    let attn = Qkv3To2::new(&dev);
    // PyTorch's nn.Linear initialisation: uniform in +-1/sqrt(d_in), standard deviation
    // bound / sqrt(3) = 1/3 for d_in = 3
    let bound = 1.0 / 3f32.sqrt();
    assert_close(&[bound / 3f32.sqrt()], &[1.0 / 3.0], 1e-7);
    for w in [&attn.w_q.weight, &attn.w_k.weight, &attn.w_v.weight] {
        assert_eq!(w.shape().concrete(), [2, 3]);
        assert!(w.as_vec().iter().all(|x| x.abs() <= bound));
    }
    let out = attn.forward(tokens(&dev, &EMBEDDINGS));
    for t in [out.q.shape().concrete(), out.k.shape().concrete(), out.v.shape().concrete()] {
        assert_eq!(t, [4, 2]);
    }
    assert_eq!(out.output.shape().concrete(), [4, 2]);
    #[rustfmt::skip]
    let weights = [
        0.238, 0.260, 0.259, 0.243,
        0.262, 0.252, 0.251, 0.235,
        0.262, 0.252, 0.251, 0.235,
        0.258, 0.250, 0.250, 0.242,
    ];
    let w = out.weights.as_vec();
    assert_eq!(rounded(&w, 3), weights.to_vec());
    // close to uniform: every weight within 0.02 of 1/4, where chapter 1's weightless attention on
    // the same sentence ranges from 0.169 to 0.324
    assert!(w.iter().all(|&a| (a - 0.25).abs() < 0.02), "{w:?}");
    let weightless = simple_self_attention(&tokens(&dev, &EMBEDDINGS)).weights.as_vec();
    let lo = weightless.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = weightless.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    assert_eq!((round_to(lo, 3), round_to(hi, 3)), (0.169, 0.324));
    // Q really is X W_Q^T: recompute one entry by hand
    let (x, wq, q) = (EMBEDDINGS, attn.w_q.weight.as_vec(), out.q.as_vec());
    let q10: f32 = (0..3).map(|i| x[1][i] * wq[i]).sum();
    assert_close(&[q[2]], &[q10], 1e-6);
}

#[test]
fn from_matrices_transposes_into_the_layer_weight() {
    let dev = Dev::default();
    // a non-symmetric W_Q: q = x W_Q must pick columns, not rows
    let attn = QkvAttention::<2, 3, 1, _>::from_matrices(
        &dev,
        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
        [[0.0; 3]; 2],
        [[1.0], [0.0]],
    );
    assert_close(&attn.w_q.weight.as_vec(), &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0], 0.0);
    let out = attn.forward(dev.tensor_from_vec(vec![1.0, 1.0], (1, Const::<2>)));
    assert_close(&out.q.as_vec(), &[5.0, 7.0, 9.0], 1e-6);
}

/// The pitfall about `torch.randn` projections: standard-normal matrices give this sentence weights
/// further from uniform than `nn.Linear`'s initialisation does.
#[test]
fn standard_normal_projections_are_further_from_uniform() {
    let dev = Dev::default();
    let x = || tokens(&dev, &EMBEDDINGS);
    let distance = |w: Vec<f32>| w.iter().map(|a| (a - 0.25).abs()).fold(0.0, f32::max);
    let ours = distance(Qkv3To2::new(&support::seeded_device(0)).forward(x()).weights.as_vec());
    let matrix = |seed: u64| -> [[f32; 2]; 3] {
        let v = support::normal_vec(seed, 6);
        [[v[0], v[1]], [v[2], v[3]], [v[4], v[5]]]
    };
    for seed in 0..10 {
        let randn = Qkv3To2::from_matrices(
            &dev,
            matrix(3 * seed),
            matrix(3 * seed + 1),
            matrix(3 * seed + 2),
        );
        let d = distance(randn.forward(x()).weights.as_vec());
        assert!(d > ours, "seed {seed}: {d} is not further from uniform than {ours}");
    }
}

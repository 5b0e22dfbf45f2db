//! Every number chapter 2 of the book shows, asserted.

use ch01_attention::simple_self_attention;
use ch02_qkv::{bank_loan, tokens, QkvAttention, EMBEDDINGS};
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
    // step 4: both scores of "bank" are 1.00 / sqrt(2)
    let s = out.scores.as_vec();
    assert_eq!(round_to(2f32.sqrt(), 3), 1.414);
    assert_eq!(rounded(&s[..2], 3), vec![0.707, 0.707]);
    assert_close(&s[..2], &[std::f32::consts::FRAC_1_SQRT_2; 2], 1e-6);
    // step 5: e^0.707 and the row sum, then equal weights
    assert_eq!(round_to(s[0].exp(), 3), 2.028);
    assert_eq!(round_to(s[0].exp() + s[1].exp(), 3), 4.056);
    let w = out.weights.as_vec();
    assert_close(&w[..2], &[0.5, 0.5], 1e-6);
    // step 6: z0 = 0.5 v0 + 0.5 v1
    let z = out.output.as_vec();
    assert_close(&z[..2], &[1.2, 1.4], 1e-6);
    // the second row, which the example program also prints
    assert_eq!(rounded(&s[2..], 3), vec![0.707, 0.255]);
    assert_eq!(rounded(&w[2..], 2), vec![0.61, 0.39]);
    assert_eq!(rounded(&z[2..], 2), vec![1.38, 1.31]);
    // one shared matrix: "bank" scores itself 1.25 and "loan" 0.65
    let shared = simple_self_attention(&x).scores.as_vec();
    assert_close(&shared[..2], &[1.25, 0.65], 1e-6);
}

#[test]
fn worked_example_learned_projections() {
    let dev = support::seeded_device(0);
    let attn = QkvAttention::<3, 2, 2, _>::new(&dev);
    // PyTorch's nn.Linear initialisation: uniform in +-1/sqrt(d_in)
    let bound = 1.0 / 3f32.sqrt();
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

//! For any seed and any number of tokens: weights are distributions and outputs are convex
//! combinations of the value vectors.

use ch02_qkv::QkvAttention;
use dfdx::prelude::*;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn qkv_attention_is_a_weighted_average(seed in any::<u64>(), n in 1usize..8, scale in 0.1f32..5.0) {
        let dev = support::seeded_device(seed);
        let attn = QkvAttention::<3, 4, 2, _>::new(&dev);
        let x: Vec<f32> = support::normal_vec(seed, n * 3).iter().map(|v| v * scale).collect();
        let out = attn.forward(dev.tensor_from_vec(x, (n, Const::<3>)));
        let (w, v, z) = (out.weights.as_vec(), out.v.as_vec(), out.output.as_vec());
        for i in 0..n {
            let row = &w[i * n..(i + 1) * n];
            prop_assert!(row.iter().all(|&a| a >= 0.0));
            prop_assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            for d in 0..2 {
                let col: Vec<f32> = (0..n).map(|j| v[j * 2 + d]).collect();
                let expect: f32 = row.iter().zip(&col).map(|(a, b)| a * b).sum();
                prop_assert!((z[i * 2 + d] - expect).abs() < 1e-4);
                let lo = col.iter().copied().fold(f32::INFINITY, f32::min);
                let hi = col.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                prop_assert!(z[i * 2 + d] >= lo - 1e-4 && z[i * 2 + d] <= hi + 1e-4);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Without projections a token scores itself `|x_i|^2`, and `x_i . x_j <= |x_i| |x_j|`: only a
    /// longer token can score higher than the token itself.
    #[test]
    fn without_projections_only_a_longer_token_outscores_a_token_itself(
        x in proptest::collection::vec(-2.0f32..2.0, 4 * 3),
    ) {
        let dev = support::Dev::default();
        let s = ch01_attention::simple_self_attention(&dev.tensor_from_vec(x.clone(), (4, Const::<3>)))
            .scores
            .as_vec();
        for i in 0..4 {
            for j in 0..4 {
                if s[i * 4 + j] > s[i * 4 + i] {
                    prop_assert!(s[j * 4 + j] > s[i * 4 + i], "token {j} outscores {i} but is not longer");
                }
            }
        }
    }
}

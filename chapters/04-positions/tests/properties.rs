//! Attention is order-blind: permuting the tokens permutes the outputs. Adding positions breaks that.

use ch03_multi_head::MultiHeadAttention;
use ch04_positions::{sinusoidal_table, SinusoidalEncoding};
use dfdx::prelude::*;
use proptest::prelude::*;

fn permute_rows(x: &[f32], perm: &[usize], d: usize) -> Vec<f32> {
    perm.iter().flat_map(|&j| x[j * d..(j + 1) * d].iter().copied()).collect()
}

fn perm_strategy() -> impl Strategy<Value = Vec<usize>> {
    (2usize..7).prop_flat_map(|n| Just((0..n).collect::<Vec<_>>()).prop_shuffle())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn without_positions_attention_is_permutation_equivariant(seed in any::<u64>(), perm in perm_strategy()) {
        let n = perm.len();
        let dev = support::seeded_device(seed);
        let mha = MultiHeadAttention::<8, 2, 4, f32, _>::new(&dev);
        let x = support::normal_vec(seed, n * 8);
        let (y, _) = mha.self_attention(dev.tensor_from_vec(x.clone(), (1, n, Const::<8>)), None);
        let (y_perm, _) = mha.self_attention(dev.tensor_from_vec(permute_rows(&x, &perm, 8), (1, n, Const::<8>)), None);
        support::assert_close(&y_perm.as_vec(), &permute_rows(&y.as_vec(), &perm, 8), 1e-5);
    }

    #[test]
    fn with_positions_order_matters(seed in any::<u64>(), perm in perm_strategy()) {
        prop_assume!(perm.iter().enumerate().any(|(i, &j)| i != j));
        let n = perm.len();
        let dev = support::seeded_device(seed);
        let mha = MultiHeadAttention::<8, 2, 4, f32, _>::new(&dev);
        let pe = SinusoidalEncoding::<8, _>::new(&dev, 16);
        let x = support::normal_vec(seed, n * 8);
        let run = |rows: Vec<f32>| mha.self_attention(pe.forward(dev.tensor_from_vec(rows, (1, n, Const::<8>))), None).0.as_vec();
        let y = run(x.clone());
        let y_perm = run(permute_rows(&x, &perm, 8));
        // the outputs are no longer just the permuted outputs
        prop_assert!(support::max_abs_diff(&y_perm, &permute_rows(&y, &perm, 8)) > 1e-3);
    }

    /// Each pair (sin, cos) of one frequency is a point on the unit circle, and moving `k`
    /// positions turns it by the fixed angle `k w_i`: `PE(p + k) = R(k w_i) PE(p)` pair by pair,
    /// whatever `p`. That rotation is why `PE(p) . PE(p + k)` depends on `k` only.
    #[test]
    fn moving_k_positions_rotates_every_pair(half in 1usize..64, p in 0usize..500, k in 0usize..500) {
        let d = 2 * half;
        let t = sinusoidal_table(p + k + 1, d);
        let (at_p, at_pk) = (&t[p * d..][..d], &t[(p + k) * d..][..d]);
        for i in 0..half {
            let (s, c) = (at_p[2 * i] as f64, at_p[2 * i + 1] as f64);
            prop_assert!((s * s + c * c - 1.0).abs() < 1e-6, "pair {i} at {p} is off the circle");
            let turn = k as f64 / 10000f64.powf(2.0 * i as f64 / d as f64);
            let (sin_k, cos_k) = turn.sin_cos();
            // sin(a + b) = sin a cos b + cos a sin b, cos(a + b) = cos a cos b - sin a sin b
            let rotated = [s * cos_k + c * sin_k, c * cos_k - s * sin_k];
            prop_assert!((rotated[0] - at_pk[2 * i] as f64).abs() < 1e-5, "pair {i}, p {p}, k {k}");
            prop_assert!((rotated[1] - at_pk[2 * i + 1] as f64).abs() < 1e-5, "pair {i}, p {p}, k {k}");
        }
    }
}

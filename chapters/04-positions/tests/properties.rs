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

    #[test]
    fn table_values_stay_in_range(len in 1usize..300, half in 1usize..64) {
        let t = sinusoidal_table(len, 2 * half);
        prop_assert!(t.iter().all(|v| v.abs() <= 1.0));
    }
}

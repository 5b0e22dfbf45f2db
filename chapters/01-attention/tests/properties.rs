//! Properties that hold for every input: softmax rows are distributions, outputs are convex
//! combinations of the values, masked keys get exactly zero weight.

use ch01_attention::scaled_dot_product_attention;
use dfdx::prelude::*;
use proptest::prelude::*;
use support::Dev;

const DK: usize = 4;
const DV: usize = 3;

#[derive(Debug, Clone)]
struct Case {
    b: usize,
    h: usize,
    sq: usize,
    sk: usize,
    q: Vec<f32>,
    k: Vec<f32>,
    v: Vec<f32>,
    allowed: Vec<bool>,
}

fn case() -> impl Strategy<Value = Case> {
    (1usize..3, 1usize..3, 1usize..6, 1usize..6).prop_flat_map(|(b, h, sq, sk)| {
        let val = -3.0f32..3.0;
        (
            proptest::collection::vec(val.clone(), b * h * sq * DK),
            proptest::collection::vec(val.clone(), b * h * sk * DK),
            proptest::collection::vec(val, b * h * sk * DV),
            proptest::collection::vec(any::<bool>(), b * h * sq * sk),
        )
            .prop_map(move |(q, k, v, mut allowed)| {
                // every query keeps at least one key open
                for row in allowed.chunks_mut(sk) {
                    if !row.iter().any(|&a| a) {
                        row[0] = true;
                    }
                }
                Case { b, h, sq, sk, q, k, v, allowed }
            })
    })
}

fn run(c: &Case, masked: bool) -> (Vec<f32>, Vec<f32>) {
    let dev = Dev::default();
    let q = dev.tensor_from_vec(c.q.clone(), (c.b, c.h, c.sq, Const::<DK>));
    let k = dev.tensor_from_vec(c.k.clone(), (c.b, c.h, c.sk, Const::<DK>));
    let v = dev.tensor_from_vec(c.v.clone(), (c.b, c.h, c.sk, Const::<DV>));
    let mask = dev
        .tensor_from_vec(
            c.allowed.iter().map(|&a| a as u8 as f32).collect(),
            (c.b, c.h, c.sq, c.sk),
        )
        .gt(0.5);
    let (out, w) = scaled_dot_product_attention(q, k, v, masked.then_some(&mask));
    (out.as_vec(), w.as_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn rows_are_probability_distributions(c in case(), masked in any::<bool>()) {
        let (_, w) = run(&c, masked);
        for row in w.chunks(c.sk) {
            prop_assert!(row.iter().all(|&x| x >= 0.0 && x.is_finite()), "row {row:?}");
            let sum: f32 = row.iter().sum();
            prop_assert!((sum - 1.0).abs() < 1e-5, "row sums to {sum}");
        }
    }

    #[test]
    fn output_is_a_convex_combination_of_values(c in case(), masked in any::<bool>()) {
        let (out, w) = run(&c, masked);
        for bh in 0..c.b * c.h {
            for i in 0..c.sq {
                let wrow = &w[(bh * c.sq + i) * c.sk..][..c.sk];
                for d in 0..DV {
                    let vals: Vec<f32> = (0..c.sk).map(|j| c.v[(bh * c.sk + j) * DV + d]).collect();
                    let expected: f32 = wrow.iter().zip(&vals).map(|(a, x)| a * x).sum();
                    let got = out[(bh * c.sq + i) * DV + d];
                    prop_assert!((got - expected).abs() < 1e-4, "out {got} vs sum w*v {expected}");
                    let lo = vals.iter().copied().fold(f32::INFINITY, f32::min);
                    let hi = vals.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                    prop_assert!(got >= lo - 1e-4 && got <= hi + 1e-4, "{got} outside [{lo}, {hi}]");
                }
            }
        }
    }

    #[test]
    fn masked_keys_get_exactly_zero_weight(c in case()) {
        let (_, w) = run(&c, true);
        for (x, &a) in w.iter().zip(&c.allowed) {
            if !a {
                prop_assert_eq!(*x, 0.0);
            }
        }
    }
}

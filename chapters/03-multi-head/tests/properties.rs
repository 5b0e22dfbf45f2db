//! Properties of the multi-head layer for random shapes, weights and masks.

use ch01_attention::broadcast_mask;
use ch03_multi_head::MultiHeadAttention;
use dfdx::prelude::*;
use proptest::prelude::*;

type Mha = MultiHeadAttention<8, 2, 4, f32, support::Dev>;

/// Identity projections and zero biases: the output is exactly the heads' weighted averages.
fn identity_layer(dev: &support::Dev) -> Mha {
    let mut mha = Mha::new(dev);
    let eye: Vec<f32> = (0..64).map(|i| if i % 9 == 0 { 1.0 } else { 0.0 }).collect();
    for l in [&mut mha.w_q, &mut mha.w_k, &mut mha.w_v, &mut mha.w_o] {
        l.weight = dev.tensor_from_vec(eye.clone(), (Const::<8>, Const::<8>));
        l.bias = dev.zeros();
    }
    mha
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn weights_are_distributions_and_masked_keys_get_zero(
        seed in any::<u64>(), b in 1usize..3, sq in 1usize..6, sk in 1usize..6, mask_bits in any::<u64>(),
    ) {
        let dev = support::seeded_device(seed);
        let mha = Mha::new(&dev);
        let q = support::normal_tensor(&dev, seed, (b, sq, Const::<8>));
        let kv = support::normal_tensor(&dev, seed ^ 1, (b, sk, Const::<8>));
        // a random (sq, sk) mask; every query keeps key 0
        let allowed: Vec<f32> = (0..sq * sk)
            .map(|i| if i % sk == 0 || (mask_bits >> (i % 64)) & 1 == 1 { 1.0 } else { 0.0 })
            .collect();
        let mask = broadcast_mask(dev.tensor_from_vec(allowed.clone(), (sq, sk)).gt(0.5), b, Const::<2>);
        let (out, w) = mha.forward(q, kv.clone(), kv, Some(&mask));
        prop_assert!(out.as_vec().iter().all(|x| x.is_finite()));
        let w = w.as_vec();
        for (r, row) in w.chunks(sk).enumerate() {
            prop_assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            for (j, &x) in row.iter().enumerate() {
                prop_assert!(x >= 0.0);
                if allowed[(r % sq) * sk + j] == 0.0 {
                    prop_assert_eq!(x, 0.0);
                }
            }
        }
    }

    #[test]
    fn each_head_outputs_a_convex_combination_of_its_values(seed in any::<u64>(), s in 1usize..7) {
        let dev = support::Dev::default();
        let mha = identity_layer(&dev);
        let x = support::normal_tensor(&dev, seed, (1, s, Const::<8>));
        let (out, w) = mha.self_attention(x.clone(), None);
        let (x, out, w) = (x.as_vec(), out.as_vec(), w.as_vec());
        for head in 0..2 {
            for i in 0..s {
                for d in 0..4 {
                    let f = head * 4 + d;
                    let expect: f32 = (0..s).map(|j| w[(head * s + i) * s + j] * x[j * 8 + f]).sum();
                    prop_assert!((out[i * 8 + f] - expect).abs() < 1e-4);
                    let lo = (0..s).map(|j| x[j * 8 + f]).fold(f32::INFINITY, f32::min);
                    let hi = (0..s).map(|j| x[j * 8 + f]).fold(f32::NEG_INFINITY, f32::max);
                    prop_assert!(out[i * 8 + f] >= lo - 1e-4 && out[i * 8 + f] <= hi + 1e-4);
                }
            }
        }
    }
}

//! Properties of the from-scratch layer norm and blocks, on random inputs.

use ch05_blocks::norm::unbiased_over_biased;
use ch05_blocks::{EncoderBlock, LayerNorm, Mode, PostNorm, PreNorm, StdNorm};
use dfdx::prelude::*;
use proptest::prelude::*;
use support::{assert_close, normal_vec, seeded_device, Dev};

const D: usize = 8;

fn tokens(seed: u64, n: usize, scale: f32, shift: f32) -> Vec<f32> {
    normal_vec(seed, n * D).into_iter().map(|x| scale * x + shift).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Each token is normalised on its own: scaling or shifting one token's features does not change
    /// its output (up to eps), and the output has mean 0 and variance 1 before gamma and beta.
    #[test]
    fn layer_norm_ignores_scale_and_shift(seed in any::<u64>(), n in 1usize..6, scale in 0.5f32..20.0, shift in -50.0f32..50.0) {
        let dev = Dev::default();
        let ln = LayerNorm::<D, f32, Dev>::new(&dev);
        let x = tokens(seed, n, 1.0, 0.0);
        let y = ln.forward(dev.tensor_from_vec(x.clone(), (1, n, Const::<D>))).as_vec();
        let moved: Vec<f32> = x.iter().map(|v| scale * v + shift).collect();
        let y_moved = ln.forward(dev.tensor_from_vec(moved, (1, n, Const::<D>))).as_vec();
        assert_close(&y_moved, &y, 2e-3);
        for t in y.chunks(D) {
            let mean = t.iter().sum::<f32>() / D as f32;
            let var = t.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / D as f32;
            prop_assert!(mean.abs() < 1e-5 && (var - 1.0).abs() < 1e-3, "mean {mean}, variance {var}");
        }
    }

    /// The unbiased-std form is the standard one times sqrt((d - 1) / d); exactly so with eps = 0 (eps
    /// sits in different places in the two, which matters only for nearly constant tokens).
    #[test]
    fn std_norm_is_layer_norm_times_a_constant(seed in any::<u64>(), n in 1usize..6, scale in 0.5f32..10.0) {
        let dev = Dev::default();
        let x = dev.tensor_from_vec(tokens(seed, n, scale, 1.0), (1, n, Const::<D>));
        let (mut ln, mut sn) = (LayerNorm::<D, f32, Dev>::new(&dev), StdNorm::<D, f32, Dev>::new(&dev));
        (ln.eps, sn.eps) = (0.0, 0.0);
        let standard = ln.forward(x.clone()).as_vec();
        let std_norm_form = sn.forward(x).as_vec();
        let ratio = unbiased_over_biased(D) as f32;
        let expected: Vec<f32> = standard.iter().map(|v| v * ratio).collect();
        assert_close(&std_norm_form, &expected, 1e-5);
    }

    /// Without a mask or positions, an encoder block treats its input as a set (chapter 4): permuting
    /// the tokens permutes the outputs. Checked for both placements.
    #[test]
    fn encoder_blocks_are_permutation_equivariant(seed in any::<u64>(), shift in 1usize..5) {
        let n = 5;
        let dev = seeded_device(seed);
        let x = tokens(seed, n, 1.0, 0.0);
        let rotate = |v: &[f32]| -> Vec<f32> { (0..n).flat_map(|i| v[((i + shift) % n) * D..][..D].to_vec()).collect() };
        let pre = EncoderBlock::<D, 2, 4, 16, PreNorm, f32, Dev>::new(&dev);
        let post = EncoderBlock::<D, 2, 4, 16, PostNorm, f32, Dev>::new(&dev);
        let run_pre = |v: Vec<f32>| pre.forward(dev.tensor_from_vec(v, (1, n, Const::<D>)), None, Mode::Eval).0.as_vec();
        let run_post = |v: Vec<f32>| post.forward(dev.tensor_from_vec(v, (1, n, Const::<D>)), None, Mode::Eval).0.as_vec();
        assert_close(&run_pre(rotate(&x)), &rotate(&run_pre(x.clone())), 1e-5);
        assert_close(&run_post(rotate(&x)), &rotate(&run_post(x.clone())), 1e-5);
    }
}

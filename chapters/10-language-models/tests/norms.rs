//! RMSNorm against chapter 5's LayerNorm, and SwiGLU's pieces.

use ch05_blocks::norm::center;
use ch05_blocks::LayerNorm;
use ch10_language_models::llama::swiglu::silu;
use ch10_language_models::RmsNorm;
use dfdx::prelude::*;

/// On a centred input (mean 0) RMSNorm is LayerNorm with the same scale and no shift: the root
/// mean square is then the standard deviation.
#[test]
fn rms_norm_is_layer_norm_on_centred_input() {
    let dev = support::Dev::default();
    let x = center(support::normal_tensor(&dev, 5, (2, 3, Const::<16>)) * 3.0 + 1.0);
    let mut rms = RmsNorm::<16, f32, _>::new(&dev);
    rms.weight = support::normal_tensor(&dev, 6, (Const::<16>,));
    let mut ln = LayerNorm::<16, f32, _>::new(&dev);
    ln.gamma = rms.weight.clone();
    support::assert_close(&rms.forward(x.clone()).as_vec(), &ln.forward(x).as_vec(), 1e-5);
}

/// Every token comes out with root mean square 1 (weight 1), whatever its scale.
#[test]
fn rms_norm_gives_unit_rms() {
    let dev = support::Dev::default();
    let x = support::normal_tensor(&dev, 8, (1, 4, Const::<32>)) * 25.0;
    let out = RmsNorm::<32, f32, _>::new(&dev).forward(x).as_vec();
    for token in out.chunks(32) {
        let rms = (token.iter().map(|v| v * v).sum::<f32>() / 32.0).sqrt();
        assert!((rms - 1.0).abs() < 1e-4, "{rms}");
    }
}

/// `silu(z) = z sigmoid(z)`: 0 at 0, its minimum -0.2785 at z = -1.2785, about z for large z.
#[test]
fn silu_values() {
    let dev = support::Dev::default();
    let z = dev.tensor([0.0f32, -1.278_464_5, 10.0, 1.0]);
    let out = silu(z).as_vec();
    assert_eq!(out[0], 0.0);
    assert!((out[1] + 0.278_464_5).abs() < 1e-6, "{}", out[1]);
    assert!((out[2] - 9.999_546).abs() < 1e-5);
    assert!((out[3] - 0.731_058_6).abs() < 1e-6);
}

/// Llama 2 7B's SwiGLU width: two thirds of 4 d for d = 4,096, rounded up to a multiple of 256,
/// is 11,008.
#[test]
fn llama_2_7b_swiglu_width() {
    let d: usize = 4096;
    let two_thirds = 2 * 4 * d / 3; // 10,922
    assert_eq!(two_thirds.div_ceil(256) * 256, 11_008);
}

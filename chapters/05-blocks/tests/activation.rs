//! The feed-forward network's activation: ReLU by default, GELU (the exact erf form) when asked,
//! with correct gradients.

use ch05_blocks::gradcheck::{finite_differences, max_relative_error};
use ch05_blocks::{Activation, FeedForward, Mode};
use dfdx::nn::Module;
use dfdx::prelude::*;
use num_traits::{NumCast, ToPrimitive};
use support::{normal_vec, seeded_device, Dev};

/// `0.5 x (1 + erf(x / sqrt 2))` in double precision, with `erf` summed from its Taylor series
/// (Rust's standard library has none; 40 terms are exact to 1e-12 for |x| <= 3).
fn gelu_reference(x: f64) -> f64 {
    let z = x / std::f64::consts::SQRT_2;
    let (mut term, mut sum) = (z, z);
    for n in 1..40 {
        term *= -z * z / n as f64;
        sum += term / (2 * n + 1) as f64;
    }
    let erf = 2.0 / std::f64::consts::PI.sqrt() * sum;
    0.5 * x * (1.0 + erf)
}

#[test]
fn gelu_is_the_exact_erf_form_not_the_tanh_one() {
    let dev = Dev::default();
    let xs = [-3.0f32, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0];
    let got = Activation::Gelu.apply(dev.tensor(xs)).as_vec();
    for (&x, &g) in xs.iter().zip(&got) {
        let want = gelu_reference(x as f64);
        assert!((g as f64 - want).abs() < 1e-6, "GELU({x}) = {g}, want {want}");
    }
    // the tanh approximation (dfdx's `fast_gelu`, `approximate="tanh"` in PyTorch) differs by up
    // to 3e-4 on these points: large enough to tell the two apart
    let tanh_form = dev.tensor(xs).fast_gelu().as_vec();
    let gap = got.iter().zip(&tanh_form).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
    assert!(gap > 1e-4, "exact and tanh GELU agree to {gap}: the test cannot tell them apart");
    assert_eq!(format!("{:.4}", got[6]), "0.8413"); // GELU(1) = Phi(1)
}

#[test]
fn gelu_derivative_at_one_is_1_0833() {
    // d/dx GELU(x) = Phi(x) + x phi(x) = 0.8413 + 0.2420 at x = 1; dfdx 0.13.0 as released gave
    // 1.1835 (it left out the 1/sqrt 2 inside erf): vendor/README.md, change 4
    let dev = Dev::default();
    let x = dev.tensor([1.0f32]);
    let grads = Activation::Gelu.apply(x.leaky_trace()).sum::<Rank0, _>().backward();
    let slope = grads.get(&x).as_vec()[0];
    assert!((slope - 1.083_315_5).abs() < 1e-5, "d GELU / dx at 1 = {slope}, want 1.0833155");
}

type Ffn = FeedForward<4, 8, f32, Dev>;

#[test]
fn gelu_gradients_match_finite_differences() {
    let dev = seeded_device(21);
    let ffn = Ffn::new(&dev).with(Activation::Gelu);
    let shape = (2, 3, Const::<4>);
    let (x, r) = (normal_vec(22, 24), normal_vec(23, 24));
    let loss = |ffn: &Ffn, x: &[f32]| {
        let y = ffn.forward(dev.tensor_from_vec(x.to_vec(), shape), Mode::Eval);
        (y * dev.tensor_from_vec(r.clone(), shape)).sum::<Rank0, _>().array()
    };
    let tx = dev.tensor_from_vec(x.clone(), shape);
    let y = ffn.forward(tx.leaky_trace(), Mode::Eval);
    let grads = (y * dev.tensor_from_vec(r.clone(), shape)).sum::<Rank0, _>().backward();

    let fd_x = finite_differences(&x, 1e-2, |x| loss(&ffn, x));
    let fd_b1 = finite_differences(&ffn.linear1.bias.as_vec(), 1e-2, |b| {
        let mut f = ffn.clone();
        f.linear1.bias = dev.tensor_from_vec(b.to_vec(), (Const::<8>,));
        loss(&f, &x)
    });
    for (name, auto, fd) in [
        ("x", grads.get(&tx).as_vec(), fd_x),
        ("linear1.bias", grads.get(&ffn.linear1.bias).as_vec(), fd_b1),
    ] {
        let err = max_relative_error(&auto, &fd);
        assert!(err < 2e-3, "d loss / d {name}: autodiff {auto:?} vs {fd:?} (error {err})");
        assert!(auto.iter().any(|g| g.abs() > 1e-2), "d loss / d {name} is all but zero");
    }
}

#[test]
fn the_feed_forward_network_is_relu_unless_set_to_gelu() {
    let dev = seeded_device(24);
    let relu = Ffn::new(&dev);
    assert_eq!(relu.activation, Activation::Relu);
    let gelu = relu.clone().with(Activation::Gelu);
    let x = dev.tensor_from_vec(normal_vec(25, 12), (1, 3, Const::<4>));
    // each written out: linear2(f(linear1(x)))
    type Hidden = Tensor<(usize, usize, Const<8>), f32, Dev>;
    let by_hand =
        |f: fn(Hidden) -> Hidden| relu.linear2.forward(f(relu.linear1.forward(x.clone()))).as_vec();
    assert_eq!(relu.forward(x.clone(), Mode::Eval).as_vec(), by_hand(|h| h.relu()));
    assert_eq!(gelu.forward(x.clone(), Mode::Eval).as_vec(), by_hand(|h| h.accurate_gelu()));
    assert_ne!(by_hand(|h| h.relu()), by_hand(|h| h.accurate_gelu()));
}

#[test]
fn activations_are_named_as_in_pytorch_and_stored_as_numbers() {
    assert_eq!("relu".parse(), Ok(Activation::Relu));
    assert_eq!("gelu".parse(), Ok(Activation::Gelu));
    let err = "gelu_new".parse::<Activation>().unwrap_err();
    assert!(err.contains("unknown activation \"gelu_new\""), "{err}");
    // dfdx saves scalar settings as float64: 0 and 1, and nothing else reads back
    assert_eq!((Activation::Relu.to_f64(), Activation::Gelu.to_f64()), (Some(0.0), Some(1.0)));
    assert_eq!(<Activation as NumCast>::from(1.0f64), Some(Activation::Gelu));
    assert_eq!(<Activation as NumCast>::from(0u8), Some(Activation::Relu));
    assert_eq!(<Activation as NumCast>::from(0.5f64), None);
    assert_eq!(<Activation as NumCast>::from(2i32), None);
}

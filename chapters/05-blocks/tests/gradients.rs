//! dfdx's reverse-mode gradients of our from-scratch attention and layer norm agree with central
//! finite differences (`ch05_blocks::gradcheck`).

use ch01_attention::{broadcast_mask, causal_allowed, scaled_dot_product_attention};
use ch05_blocks::gradcheck::{finite_differences, max_relative_error};
use ch05_blocks::{LayerNorm, StdNorm};
use dfdx::prelude::*;
use support::{normal_vec, Dev};

const H_STEP: f32 = 1e-2;
const TOL: f32 = 2e-3;

type Qkv = Tensor<(usize, Const<2>, usize, Const<4>), f32, Dev>;

/// loss = sum(attention(q, k, v, causal) * r) for fixed random r: every output counts differently.
fn attention_loss(dev: &Dev, q: &[f32], k: &[f32], v: &[f32], r: &[f32]) -> f32 {
    let shape = (1, Const::<2>, 3, Const::<4>);
    let mask = broadcast_mask(causal_allowed(dev, 3), 1, Const::<2>);
    let (out, _) = scaled_dot_product_attention(
        dev.tensor_from_vec(q.to_vec(), shape),
        dev.tensor_from_vec(k.to_vec(), shape),
        dev.tensor_from_vec(v.to_vec(), shape),
        Some(&mask),
    );
    (out * dev.tensor_from_vec(r.to_vec(), shape)).sum::<Rank0, _>().array()
}

#[test]
fn attention_gradients_match_finite_differences() {
    let dev = Dev::default();
    let n = 2 * 3 * 4;
    let (q, k, v, r) = (normal_vec(1, n), normal_vec(2, n), normal_vec(3, n), normal_vec(4, n));
    let shape = (1, Const::<2>, 3, Const::<4>);

    // autodiff: one backward pass gives the gradient for q, k and v at once
    let tq: Qkv = dev.tensor_from_vec(q.clone(), shape);
    let tk: Qkv = dev.tensor_from_vec(k.clone(), shape);
    let tv: Qkv = dev.tensor_from_vec(v.clone(), shape);
    let mask = broadcast_mask(causal_allowed(&dev, 3), 1, Const::<2>);
    let (out, _) = scaled_dot_product_attention(
        tq.leaky_trace(),
        tk.retaped::<OwnedTape<f32, Dev>>(),
        tv.retaped::<OwnedTape<f32, Dev>>(),
        Some(&mask),
    );
    let grads = (out * dev.tensor_from_vec(r.clone(), shape)).sum::<Rank0, _>().backward();

    let fd_q = finite_differences(&q, H_STEP, |x| attention_loss(&dev, x, &k, &v, &r));
    let fd_k = finite_differences(&k, H_STEP, |x| attention_loss(&dev, &q, x, &v, &r));
    let fd_v = finite_differences(&v, H_STEP, |x| attention_loss(&dev, &q, &k, x, &r));
    for (name, auto, fd) in
        [("q", grads.get(&tq), fd_q), ("k", grads.get(&tk), fd_k), ("v", grads.get(&tv), fd_v)]
    {
        let auto = auto.as_vec();
        let err = max_relative_error(&auto, &fd);
        assert!(
            err < TOL,
            "d loss / d {name}: autodiff {auto:?} vs finite differences {fd:?} (error {err})"
        );
        assert!(
            auto.iter().any(|g| g.abs() > 1e-2),
            "d loss / d {name} is all zero: the check would prove nothing"
        );
    }
}

#[test]
fn layer_norm_gradients_match_finite_differences() {
    let dev = Dev::default();
    let (x, r) = (normal_vec(5, 2 * 6), normal_vec(6, 2 * 6));
    let mut ln = LayerNorm::<6, f32, Dev>::new(&dev);
    ln.gamma = dev.tensor_from_vec(normal_vec(7, 6), (Const::<6>,));
    ln.beta = dev.tensor_from_vec(normal_vec(8, 6), (Const::<6>,));
    let shape = (1, 2, Const::<6>);
    let loss = |ln: &LayerNorm<6, f32, Dev>, x: &[f32]| {
        (ln.forward(dev.tensor_from_vec(x.to_vec(), shape)) * dev.tensor_from_vec(r.clone(), shape))
            .sum::<Rank0, _>()
            .array()
    };

    let tx = dev.tensor_from_vec(x.clone(), shape);
    let grads = (ln.forward(tx.leaky_trace()) * dev.tensor_from_vec(r.clone(), shape))
        .sum::<Rank0, _>()
        .backward();

    let fd_x = finite_differences(&x, H_STEP, |x| loss(&ln, x));
    let fd_gamma = finite_differences(&ln.gamma.as_vec(), H_STEP, |g| {
        let mut l = ln.clone();
        l.gamma = dev.tensor_from_vec(g.to_vec(), (Const::<6>,));
        loss(&l, &x)
    });
    for (name, auto, fd) in
        [("x", grads.get(&tx).as_vec(), fd_x), ("gamma", grads.get(&ln.gamma).as_vec(), fd_gamma)]
    {
        let err = max_relative_error(&auto, &fd);
        assert!(
            err < TOL,
            "d loss / d {name}: autodiff {auto:?} vs finite differences {fd:?} (error {err})"
        );
    }
    // d loss / d beta = sum of r over the tokens, exactly
    let r_sum: Vec<f32> = (0..6).map(|j| r[j] + r[6 + j]).collect();
    support::assert_close(&grads.get(&ln.beta).as_vec(), &r_sum, 1e-6);
}

#[test]
fn std_norm_gradients_match_finite_differences() {
    let dev = Dev::default();
    let (x, r) = (normal_vec(9, 3 * 5), normal_vec(10, 3 * 5));
    let sn = StdNorm::<5, f32, Dev>::new(&dev);
    let shape = (3, 1, Const::<5>);
    let tx = dev.tensor_from_vec(x.clone(), shape);
    let grads = (sn.forward(tx.leaky_trace()) * dev.tensor_from_vec(r.clone(), shape))
        .sum::<Rank0, _>()
        .backward();
    let fd = finite_differences(&x, H_STEP, |x| {
        (sn.forward(dev.tensor_from_vec(x.to_vec(), shape)) * dev.tensor_from_vec(r.clone(), shape))
            .sum::<Rank0, _>()
            .array()
    });
    let auto = grads.get(&tx).as_vec();
    let err = max_relative_error(&auto, &fd);
    assert!(err < TOL, "autodiff {auto:?} vs finite differences {fd:?} (error {err})");
}

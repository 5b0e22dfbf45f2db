//! dfdx's reverse-mode gradients of our from-scratch attention, layer norms and whole residual
//! blocks agree with central finite differences (`ch05_blocks::gradcheck`).

use ch01_attention::{broadcast_mask, causal_allowed, scaled_dot_product_attention};
use ch05_blocks::block::self_attend;
use ch05_blocks::gradcheck::{
    finite_differences, finite_differences_with_kinks, max_relative_error,
};
use ch05_blocks::{EncoderBlock, LayerNorm, Mode, Placement, PostNorm, PreNorm, StdNorm};
use dfdx::nn::Module;
use dfdx::prelude::*;
use support::{normal_tensor, normal_vec, seeded_device, Dev};

/// The step `h` of the central differences.
const H_STEP: f32 = 1e-2;
/// The largest `|autodiff - finite difference| / max(1, |finite difference|)` accepted.
const TOL: f32 = 2e-3;

#[test]
fn step_and_tolerance_are_the_pages() {
    // h = 10^-2, tolerance 2 10^-3, and float32's epsilon is about 10^-7
    assert_eq!((H_STEP, TOL), (1e-2, 2e-3));
    assert_eq!(format!("{:.0e}", f32::EPSILON), "1e-7");
}

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
    ln.gamma = normal_tensor(&dev, 7, (Const::<6>,));
    ln.beta = normal_tensor(&dev, 8, (Const::<6>,));
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

type Block<P> = EncoderBlock<8, 2, 4, 16, P, f32, Dev>;

/// The inputs of the feed-forward network's ReLU, recomputed from the block's parts.
fn relu_inputs<P: Placement>(
    block: &Block<P>,
    x: Tensor<(usize, usize, Const<8>), f32, Dev>,
) -> Vec<f32> {
    let ffn_input = if P::PRE_NORM {
        let (attended, _) = self_attend(&block.self_attn, block.norm1.forward(x.clone()), None);
        block.norm2.forward(x + attended)
    } else {
        let (attended, _) = self_attend(&block.self_attn, x.clone(), None);
        block.norm1.forward(x + attended)
    };
    block.ffn.linear1.forward(ffn_input).as_vec()
}

/// Through a whole encoder block (two residual sub-layers: layer norm, multi-head self-attention,
/// layer norm, feed-forward network), the gradient of `L = sum(r * block(x))` with respect to the
/// input `x` and to three parameters, one in each part: `norm1.gamma`, the query projection
/// `self_attn.w_q.weight` and the feed-forward `ffn.linear1.bias`. The ReLU has a kink at 0; a
/// coordinate whose probes put a ReLU input on both sides of it is not compared.
fn block_gradients_match<P: Placement>() {
    let dev = seeded_device(11);
    let block = Block::<P>::new(&dev);
    let shape = (1, 3, Const::<8>);
    let (x, r) = (normal_vec(12, 3 * 8), normal_vec(13, 3 * 8));
    // the loss, and the side of the kink every ReLU input is on
    let loss = |block: &Block<P>, x: &[f32]| {
        let x = dev.tensor_from_vec(x.to_vec(), shape);
        let sides = relu_inputs(block, x.clone()).iter().map(|&v| v > 0.0).collect();
        let (y, _) = block.forward(x, None, Mode::Eval);
        ((y * dev.tensor_from_vec(r.clone(), shape)).sum::<Rank0, _>().array(), sides)
    };

    // autodiff: one backward pass gives every gradient
    let tx = dev.tensor_from_vec(x.clone(), shape);
    let (y, _) = block.forward(tx.leaky_trace(), None, Mode::Eval);
    let grads = (y * dev.tensor_from_vec(r.clone(), shape)).sum::<Rank0, _>().backward();

    let fd_x = finite_differences_with_kinks(&x, H_STEP, |x| loss(&block, x));
    let fd_gamma = finite_differences_with_kinks(&block.norm1.gamma.as_vec(), H_STEP, |g| {
        let mut b = block.clone();
        b.norm1.gamma = dev.tensor_from_vec(g.to_vec(), (Const::<8>,));
        loss(&b, &x)
    });
    let fd_w_q = finite_differences_with_kinks(&block.self_attn.w_q.weight.as_vec(), H_STEP, |w| {
        let mut b = block.clone();
        b.self_attn.w_q.weight = dev.tensor_from_vec(w.to_vec(), (Const::<8>, Const::<8>));
        loss(&b, &x)
    });
    let fd_b1 = finite_differences_with_kinks(&block.ffn.linear1.bias.as_vec(), H_STEP, |v| {
        let mut b = block.clone();
        b.ffn.linear1.bias = dev.tensor_from_vec(v.to_vec(), (Const::<16>,));
        loss(&b, &x)
    });
    let (mut compared, mut skipped) = (0, 0);
    for (name, auto, fd) in [
        ("x", grads.get(&tx).as_vec(), fd_x),
        ("norm1.gamma", grads.get(&block.norm1.gamma).as_vec(), fd_gamma),
        ("self_attn.w_q.weight", grads.get(&block.self_attn.w_q.weight).as_vec(), fd_w_q),
        ("ffn.linear1.bias", grads.get(&block.ffn.linear1.bias).as_vec(), fd_b1),
    ] {
        let (smooth_auto, smooth_fd): (Vec<f32>, Vec<f32>) =
            auto.iter().zip(&fd).filter_map(|(&a, f)| f.map(|f| (a, f))).unzip();
        compared += smooth_fd.len();
        skipped += fd.len() - smooth_fd.len();
        let err = max_relative_error(&smooth_auto, &smooth_fd);
        assert!(
            err < TOL,
            "{}: d loss / d {name}: autodiff {auto:?} vs finite differences {fd:?} (error {err})",
            std::any::type_name::<P>()
        );
        assert!(
            smooth_auto.iter().any(|g| g.abs() > 1e-2),
            "d loss / d {name} is all but zero: the check would prove nothing"
        );
    }
    // almost every coordinate is compared: of 24 + 8 + 64 + 16 = 112, at most 4 straddle a kink
    assert_eq!(compared + skipped, 112);
    assert!(skipped <= 4, "{skipped} coordinates straddle a ReLU kink");
}

#[test]
fn encoder_block_gradients_match_finite_differences() {
    block_gradients_match::<PreNorm>();
    block_gradients_match::<PostNorm>();
}

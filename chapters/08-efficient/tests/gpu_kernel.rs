//! The book's CUDA kernels on a real GPU (with `--features cuda`, in the GPU kit): equal to
//! chapter 1's attention computed by dfdx on the same GPU, with and without the causal mask, at
//! lengths that are not multiples of the tiles, with batch and heads above 1, at head widths 64
//! and 128: the plain and the 3xTF32 kernels within 1e-5, the tensor-core kernel on halves within the rounding of its
//! weights to half precision (2^-11 of the largest |v| for float16, 2^-8 for bfloat16), chapter 1
//! taking the same rounded inputs; and the refusals. Without the feature this module is not
//! compiled at all, so a CPU run never counts these tests as passed.

use ch01_attention::{broadcast_mask, causal_allowed, scaled_dot_product_attention};
use ch08_efficient::gpu::{tensor_core_attention, tf32x3_attention, tiled_attention, to_halves};
use ch08_efficient::gpu::{GpuAttentionError, Half};
use dfdx::prelude::*;

type Qkv<const D: usize> = Tensor<(usize, usize, usize, Const<D>), f32, Cuda>;

fn inputs<const D: usize>(dev: &Cuda, b: usize, h: usize, n: usize) -> [Qkv<D>; 3] {
    [1, 2, 3].map(|seed| support::normal_tensor(dev, seed, (b, h, n, Const::<D>)))
}

/// A float32 kernel: the plain one or 3xTF32.
type Float32Kernel<const D: usize> =
    fn(&Qkv<D>, &Qkv<D>, &Qkv<D>, bool) -> Result<Qkv<D>, GpuAttentionError>;

/// The largest difference between a float32 kernel and chapter 1 at one shape.
fn largest_difference<const D: usize>(
    kernel: Float32Kernel<D>,
    (b, h, n): (usize, usize, usize),
    causal: bool,
) -> f32 {
    let dev = Cuda::seed_from_u64(0);
    let [q, k, v] = inputs::<D>(&dev, b, h, n);
    let got = kernel(&q, &k, &v, causal).unwrap().as_vec();
    let mask = causal.then(|| broadcast_mask(causal_allowed(&dev, n), b, h));
    let (want, _) = scaled_dot_product_attention(q, k, v, mask.as_ref());
    let want = want.as_vec();
    assert_eq!(got.len(), want.len());
    got.iter().zip(&want).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max)
}

/// A float32 kernel against chapter 1 at every shape, within 1e-5.
fn check_float32(name: &str, d64: Float32Kernel<64>, d128: Float32Kernel<128>) {
    for shape in [(1, 1, 1), (2, 3, 37), (1, 8, 200), (2, 4, 1000)] {
        for causal in [false, true] {
            let diff = largest_difference::<64>(d64, shape, causal);
            println!("{name}, d 64, {shape:?}, causal {causal}: {diff:e}");
            assert!(diff < 1e-5, "{name} d 64, {shape:?}, causal {causal}: {diff}");
        }
    }
    for causal in [false, true] {
        let diff = largest_difference::<128>(d128, (2, 2, 333), causal);
        println!("{name}, d 128, (2, 2, 333), causal {causal}: {diff:e}");
        assert!(diff < 1e-5, "{name} d 128, n 333, causal {causal}: {diff}");
    }
}

#[test]
fn the_plain_kernel_equals_chapter_1_on_the_gpu() {
    check_float32("plain", tiled_attention, tiled_attention);
}

#[test]
fn the_3xtf32_kernel_equals_chapter_1_on_the_gpu() {
    check_float32("3xTF32", tf32x3_attention, tf32x3_attention);
}

/// `t` rounded to `half` and back, on the host.
fn rounded<const D: usize>(dev: &Cuda, t: &Qkv<D>, half: Half) -> Qkv<D> {
    let round = |v: f32| match half {
        Half::F16 => half::f16::from_f32(v).to_f32(),
        Half::Bf16 => half::bf16::from_f32(v).to_f32(),
    };
    dev.tensor_from_vec(t.as_vec().into_iter().map(round).collect(), *t.shape())
}

/// The tensor-core kernel against chapter 1 on the same rounded inputs: the largest difference
/// and its bound.
fn tensor_core_difference<const D: usize>(
    half: Half,
    (b, h, n): (usize, usize, usize),
    causal: bool,
) -> (f32, f32) {
    let dev = Cuda::seed_from_u64(0);
    let [q, k, v] = inputs::<D>(&dev, b, h, n).map(|t| rounded(&dev, &t, half));
    let got = tensor_core_attention(&to_halves(&q, &k, &v, half).unwrap(), causal).unwrap();
    let largest_v = v.as_vec().iter().fold(0.0f32, |m, x| m.max(x.abs()));
    let mask = causal.then(|| broadcast_mask(causal_allowed(&dev, n), b, h));
    let (want, _) = scaled_dot_product_attention(q, k, v, mask.as_ref());
    let (got, want) = (got.as_vec(), want.as_vec());
    let diff = got.iter().zip(&want).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
    let epsilon = if half == Half::F16 { 2f32.powi(-11) } else { 2f32.powi(-8) };
    (diff, epsilon * largest_v + 1e-5)
}

#[test]
fn the_tensor_core_kernel_equals_chapter_1_within_half_precision() {
    for half in [Half::F16, Half::Bf16] {
        for shape in [(1, 1, 1), (2, 3, 37), (1, 8, 200), (2, 4, 1000)] {
            for causal in [false, true] {
                let (diff, bound) = tensor_core_difference::<64>(half, shape, causal);
                println!("{half:?}, d 64, {shape:?}, causal {causal}: {diff:e} (bound {bound:e})");
                assert!(diff <= bound, "{half:?} d 64 {shape:?} causal {causal}: {diff}");
            }
        }
        for causal in [false, true] {
            let (diff, bound) = tensor_core_difference::<128>(half, (2, 2, 333), causal);
            println!("{half:?}, d 128, (2, 2, 333), causal {causal}: {diff:e} (bound {bound:e})");
            assert!(diff <= bound, "{half:?} d 128 causal {causal}: {diff}");
        }
    }
}

#[test]
fn the_kernel_refuses_what_it_cannot_do() {
    let dev = Cuda::seed_from_u64(0);
    let [q, k, _] = inputs::<64>(&dev, 1, 2, 10);
    let [_, _, v] = inputs::<64>(&dev, 1, 2, 11);
    let refused = tiled_attention(&q, &k, &v, false).unwrap_err();
    assert_eq!(refused, GpuAttentionError::Lengths { q: 10, k: 10, v: 11 });
    let [q, k, v] = inputs::<32>(&dev, 1, 2, 10);
    assert_eq!(tiled_attention(&q, &k, &v, false).unwrap_err(), GpuAttentionError::HeadWidth(32));
    let refused = to_halves(&q, &k, &v, Half::F16).err();
    assert_eq!(refused, Some(GpuAttentionError::HeadWidth(32)));
}

//! The patch embedding is a strided convolution: cutting `P x P` patches, flattening them
//! channel first and applying one `Linear` gives what `Conv2d(C, E, kernel_size=P, stride=P)`
//! gives, checked against a convolution written out as loops ([`conv2d_reference`]) and against
//! PyTorch's `Conv2d` (`fixtures/vit_reference.json`).

use ch07_vit::{conv2d_reference, patchify, patchify_dynamic, ImageError, PatchEmbedding};
use dfdx::prelude::*;
use proptest::prelude::*;
use serde_json::Value;
use support::fixtures::{floats, size};
use support::{assert_close, normal_tensor, normal_vec, Dev};

fn fixture() -> Value {
    support::fixtures::load(
        concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/vit_reference.json"),
        "fixtures/generate_vit.py",
    )
}

/// `[batch, out, rows, cols]` (a convolution's layout) to `[batch, rows * cols, out]` (tokens):
/// PyTorch's `.flatten(2).transpose(1, 2)`.
fn conv_to_tokens(conv: &[f32], batch: usize, out: usize, patches: usize) -> Vec<f32> {
    let mut tokens = vec![0.0; conv.len()];
    for b in 0..batch {
        for o in 0..out {
            for n in 0..patches {
                tokens[(b * patches + n) * out + o] = conv[(b * out + o) * patches + n];
            }
        }
    }
    tokens
}

#[test]
fn worked_example_patch_order() {
    // one 1x4x4 image holding 0..16 row by row, cut into 2x2 patches
    let dev = Dev::default();
    let image = dev.tensor_from_vec(
        (0..16).map(|v| v as f32).collect(),
        (1, Const::<1>, Const::<4>, Const::<4>),
    );
    let patches: Tensor<(usize, usize, Const<4>), f32, Dev> = patchify(image, Const::<2>);
    assert_eq!(patches.shape().concrete(), [1, 4, 4]);
    // patches row by row, pixels row by row inside each patch
    #[rustfmt::skip]
    let expected = [
        0.0, 1.0, 4.0, 5.0,      2.0, 3.0, 6.0, 7.0,
        8.0, 9.0, 12.0, 13.0,    10.0, 11.0, 14.0, 15.0,
    ];
    assert_eq!(patches.as_vec(), expected);
}

#[test]
fn patches_flatten_channel_first() {
    // two channels: the first holds 0..4, the second 10..14; one 2x2 patch holds all of them
    let dev = Dev::default();
    let data = vec![0.0, 1.0, 2.0, 3.0, 10.0, 11.0, 12.0, 13.0];
    let image = dev.tensor_from_vec(data.clone(), (1, Const::<2>, Const::<2>, Const::<2>));
    let patches: Tensor<(usize, usize, Const<8>), f32, Dev> = patchify(image, Const::<2>);
    // as PyTorch's Conv2d weight [E, C, P, P] flattens: channel, then row, then column
    assert_eq!(patches.as_vec(), data);
}

#[test]
fn worked_example_patch_counts() {
    let dev = Dev::default();
    // a 32x32 RGB image in 8x8 patches: 4 x 4 = 16 patches of 3 * 8 * 8 = 192 values
    let images = normal_tensor(&dev, 1, (4, Const::<3>, Const::<32>, Const::<32>));
    let patches: Tensor<(usize, usize, Const<192>), f32, Dev> = patchify(images, Const::<8>);
    assert_eq!(patches.shape().concrete(), [4, 16, 192]);
    // 224x224 in 16x16 patches: 14 x 14 = 196 patches of 3 * 16 * 16 = 768 values
    let images = dev.zeros_like(&(1, Const::<3>, Const::<224>, Const::<224>));
    let patches: Tensor<(usize, usize, Const<768>), f32, Dev> = patchify(images, Const::<16>);
    assert_eq!(patches.shape().concrete(), [1, 196, 768]);
    // the digits: 8x8 grey in 2x2 patches, 16 patches of 4 values
    let images = dev.zeros_like(&(5, Const::<1>, Const::<8>, Const::<8>));
    let patches: Tensor<(usize, usize, Const<4>), f32, Dev> = patchify(images, Const::<2>);
    assert_eq!(patches.shape().concrete(), [5, 16, 4]);
}

#[test]
fn equals_the_convolution_on_the_demo_sizes() {
    // the demo ViT's patch embedding: Conv2d(3, 128, kernel_size=8, stride=8) on 32x32 images
    let dev = support::seeded_device(3);
    let embed = PatchEmbedding::<3, 8, 192, 128, f32, Dev>::new(&dev);
    let images = normal_tensor(&dev, 4, (2, Const::<3>, Const::<32>, Const::<32>));
    let tokens = embed.forward(images.clone());
    assert_eq!(tokens.shape().concrete(), [2, 16, 128]);
    let conv = conv2d_reference(
        &images.as_vec(),
        [2, 3, 32, 32],
        &embed.proj.weight.as_vec(), // [128, 192] is the conv weight [128, 3, 8, 8]
        &embed.proj.bias.as_vec(),
        8,
    );
    assert_close(&tokens.as_vec(), &conv_to_tokens(&conv, 2, 128, 16), 1e-5);
}

#[test]
fn equals_pytorch_conv2d() {
    let f = fixture();
    let c = &f["conv"];
    assert_eq!((size(c, "in_channels"), size(c, "out_channels"), size(c, "patch")), (3, 8, 4));
    let dev = Dev::default();
    let mut embed = PatchEmbedding::<3, 4, 48, 8, f32, Dev>::new(&dev);
    embed.proj.weight = dev.tensor_from_vec(floats(c, "weight"), (Const::<8>, Const::<48>));
    embed.proj.bias = dev.tensor_from_vec(floats(c, "bias"), (Const::<8>,));
    let expected = floats(c, "tokens"); // [2, 6, 8]: a 12x8 image has 3 x 2 patches

    // sizes in the type...
    let x = dev.tensor_from_vec(floats(c, "x"), (2, Const::<3>, Const::<12>, Const::<8>));
    let tokens = embed.forward(x);
    assert_eq!(tokens.shape().concrete(), [2, 6, 8]);
    assert_close(&tokens.as_vec(), &expected, 1e-5);

    // ...or known at run time
    let x = dev.tensor_from_vec(floats(c, "x"), (2, 3, 12, 8));
    let tokens = embed.try_forward_dynamic(x).expect("3 channels, 4 divides 12 and 8");
    assert_close(&tokens.as_vec(), &expected, 1e-5);

    // and the loops agree with PyTorch too
    let conv = conv2d_reference(
        &floats(c, "x"),
        [2, 3, 12, 8],
        &floats(c, "weight"),
        &floats(c, "bias"),
        4,
    );
    assert_close(&conv_to_tokens(&conv, 2, 8, 6), &expected, 1e-5);
}

#[test]
fn dynamic_sizes_give_errors_that_name_the_fix() {
    let dev = Dev::default();
    let embed = PatchEmbedding::<3, 8, 192, 16, f32, Dev>::new(&dev);

    let odd: Tensor<(usize, usize, usize, usize), f32, Dev> = dev.zeros_like(&(1, 3, 30, 30));
    let err = embed.try_forward_dynamic(odd.clone()).unwrap_err();
    assert_eq!(err, ImageError::NotDivisible { height: 30, width: 30, patch: 8 });
    assert!(err.to_string().contains("crop or pad it to multiples of 8"), "{err}");
    assert_eq!(patchify_dynamic(odd, 8).unwrap_err(), err);

    let grey: Tensor<(usize, usize, usize, usize), f32, Dev> = dev.zeros_like(&(4, 1, 32, 32));
    let err = embed.try_forward_dynamic(grey).unwrap_err();
    assert_eq!(err, ImageError::Channels { expected: 3, got: 1 });
    assert!(err.to_string().contains("build the model with C = 1"), "{err}");

    let zero: Tensor<(usize, usize, usize, usize), f32, Dev> = dev.zeros_like(&(1, 1, 4, 4));
    assert!(
        patchify_dynamic(zero, 0).is_err(),
        "a patch of size 0 is an error, not a division by 0"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// For any sizes: patches times the flattened kernel (plus bias) is the strided convolution.
    #[test]
    fn patches_times_kernel_is_the_convolution(
        seed in any::<u64>(), batch in 1usize..3, c in 1usize..4, p in 1usize..5,
        rows in 1usize..4, cols in 1usize..4, out in 1usize..6,
    ) {
        let dev = Dev::default();
        let (h, w, pd) = (rows * p, cols * p, c * p * p);
        let x = normal_vec(seed, batch * c * h * w);
        let weight = normal_vec(seed ^ 1, out * pd);
        let bias = normal_vec(seed ^ 2, out);
        let images = dev.tensor_from_vec(x.clone(), (batch, c, h, w));
        let patches = patchify_dynamic(images, p).unwrap().as_vec(); // [batch, rows * cols, pd]
        let mut tokens = Vec::with_capacity(batch * rows * cols * out);
        for patch in patches.chunks(pd) {
            for o in 0..out {
                let kernel = &weight[o * pd..(o + 1) * pd];
                let dot: f32 = patch.iter().zip(kernel).map(|(a, b)| a * b).sum();
                tokens.push(dot + bias[o]);
            }
        }
        let conv = conv2d_reference(&x, [batch, c, h, w], &weight, &bias, p);
        assert_close(&tokens, &conv_to_tokens(&conv, batch, out, rows * cols), 1e-4);
    }
}

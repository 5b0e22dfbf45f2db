//! The model's shapes and its parameter count, term by term, against PyTorch's
//! (`fixtures/vit_reference.json`, from `fixtures/generate_vit.py`).

use ch07_vit::{DemoVit, DigitsVit, ImageError, Mode, Vit, VitBase16, EMBED_INIT_STD};
use dfdx::nn::modules::Linear;
use dfdx::nn::{BuildModule, NumParams};
use dfdx::prelude::*;
use serde_json::Value;
use support::{assert_close, normal_tensor, Dev};

fn param_counts() -> Value {
    let f = support::fixtures::load(
        concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/vit_reference.json"),
        "fixtures/generate_vit.py",
    );
    f["param_counts"].clone()
}

fn pytorch(v: &Value, key: &str) -> usize {
    v[key].as_u64().unwrap_or_else(|| panic!("the fixture lacks {key:?}")) as usize
}

/// `Linear(i, o)` with bias.
const fn linear(i: usize, o: usize) -> usize {
    i * o + o
}

/// One pre-norm encoder layer: attention (four d x d projections), the feed-forward network, two
/// layer norms.
const fn encoder_layer(d: usize, f: usize) -> usize {
    4 * linear(d, d) + linear(d, f) + linear(f, d) + 2 * 2 * d
}

/// The whole ViT: patch projection, [CLS], positions, L layers, final norm, classifier.
const fn vit_params(
    c: usize,
    img: usize,
    p: usize,
    d: usize,
    f: usize,
    l: usize,
    classes: usize,
) -> usize {
    let tokens = (img / p) * (img / p) + 1;
    linear(c * p * p, d) + d + tokens * d + l * encoder_layer(d, f) + 2 * d + linear(d, classes)
}

#[test]
fn worked_example_tokens() {
    // 32x32 in 8x8 patches: 16 patches + [CLS] = 17 tokens
    assert_eq!(DemoVit::<Dev>::NUM_PATCHES, 16);
    let dev = support::seeded_device(0);
    let demo = DemoVit::<Dev>::new(&dev);
    let images = normal_tensor(&dev, 1, (4, Const::<3>, Const::<32>, Const::<32>));
    assert_eq!(demo.embed(images, Mode::Eval).shape().concrete(), [4, 17, 128]);
    // the digits: 8x8 in 2x2 patches, also 16 + 1 = 17
    assert_eq!(DigitsVit::<Dev>::NUM_PATCHES, 16);
    // 224x224 in 16x16 patches: 196 patches, 197 tokens (a narrow model of that input size)
    assert_eq!(VitBase16::<Dev>::NUM_PATCHES, 196);
    let wide = Vit::<3, 224, 16, 768, 197, 32, 4, 8, 64, 1, 10, f32, Dev>::new(&dev);
    let images = dev.zeros_like(&(1, Const::<3>, Const::<224>, Const::<224>));
    assert_eq!(wide.embed(images, Mode::Eval).shape().concrete(), [1, 197, 32]);
}

#[test]
fn worked_example_demo_logits() {
    let dev = support::seeded_device(0);
    let vit = DemoVit::<Dev>::new(&dev);
    let images = normal_tensor(&dev, 1, (4, Const::<3>, Const::<32>, Const::<32>));
    let (logits, attention) = vit.forward_with_attention(images, Mode::Eval);
    assert_eq!(logits.shape().concrete(), [4, 10]);
    assert!(logits.as_vec().iter().all(|v| v.is_finite()));
    // one map per layer, (batch, heads, tokens, tokens), every row a distribution
    assert_eq!(attention.len(), 4);
    for map in &attention {
        assert_eq!(map.shape().concrete(), [4, 8, 17, 17]);
        for row in map.as_vec().chunks(17) {
            assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        }
    }
}

#[test]
fn worked_example_demo_parameters() {
    let pt = param_counts();
    let demo = &pt["demo"];
    let dev = Dev::default();
    let vit = DemoVit::<Dev>::new(&dev);

    // Conv2d(3, 128, 8, 8): 3 * 8 * 8 * 128 weights + 128 biases
    assert_eq!(linear(3 * 8 * 8, 128), 24_704);
    assert_eq!(vit.patch_embed.num_trainable_params(), 24_704);
    assert_eq!(pytorch(demo, "patch_embed"), 24_704);
    // [CLS]: 128; positions: 17 * 128
    assert_eq!((vit.cls_token.shape().num_elements(), pytorch(demo, "cls_token")), (128, 128));
    assert_eq!(17 * 128, 2_176);
    assert_eq!((vit.pos_embed.shape().num_elements(), pytorch(demo, "pos_embed")), (2_176, 2_176));
    // 4 encoder layers of 198,272; the four attention projections are 4 x (128^2 + 128)
    assert_eq!((linear(128, 128), 4 * linear(128, 128)), (16_512, 66_048));
    let layer = &pt["demo_encoder_layer"];
    let block = &vit.encoder.layers[0];
    assert_eq!(
        (block.self_attn.num_trainable_params(), pytorch(layer, "self_attn")),
        (66_048, 66_048)
    );
    assert_eq!(
        (block.ffn.linear1.num_trainable_params(), pytorch(layer, "linear1")),
        (66_048, 66_048)
    );
    assert_eq!(
        (block.ffn.linear2.num_trainable_params(), pytorch(layer, "linear2")),
        (65_664, 65_664)
    );
    assert_eq!((block.norm1.num_trainable_params(), pytorch(layer, "norm1")), (256, 256));
    assert_eq!((block.norm2.num_trainable_params(), pytorch(layer, "norm2")), (256, 256));
    assert_eq!((encoder_layer(128, 512), pytorch(layer, "total")), (198_272, 198_272));
    assert_eq!(4 * 198_272, 793_088);
    assert_eq!((vit.encoder.num_trainable_params(), pytorch(demo, "encoder")), (793_088, 793_088));
    // final LayerNorm(128) and Linear(128, 10)
    assert_eq!((vit.norm.num_trainable_params(), pytorch(demo, "norm")), (256, 256));
    assert_eq!(
        (vit.classifier.num_trainable_params(), pytorch(demo, "classifier")),
        (1_290, 1_290)
    );
    // the sum
    assert_eq!(24_704 + 128 + 2_176 + 793_088 + 256 + 1_290, 821_642);
    assert_eq!(vit_params(3, 32, 8, 128, 512, 4, 10), 821_642);
    assert_eq!((vit.num_trainable_params(), pytorch(demo, "total")), (821_642, 821_642));
    // the count the type states, term by term
    assert_eq!(DemoVit::<Dev>::NUM_PARAMS, 821_642);
    // the page's table, row by row: its formula's value, dfdx's count and PyTorch's
    let table = DemoVit::<Dev>::parameter_table();
    let rows = [
        (
            "patch embedding, `Conv2d(3, 128, 8, stride 8)`",
            vit.patch_embed.num_trainable_params(),
            pytorch(demo, "patch_embed"),
        ),
        ("`[CLS]` token", vit.cls_token.shape().num_elements(), pytorch(demo, "cls_token")),
        ("position embeddings", vit.pos_embed.shape().num_elements(), pytorch(demo, "pos_embed")),
        ("one encoder block", block.num_trainable_params(), pytorch(layer, "total")),
        ("4 encoder blocks", vit.encoder.num_trainable_params(), pytorch(demo, "encoder")),
        ("final `LayerNorm`", vit.norm.num_trainable_params(), pytorch(demo, "norm")),
        (
            "classifier, `Linear(128, 10)`",
            vit.classifier.num_trainable_params(),
            pytorch(demo, "classifier"),
        ),
    ];
    assert_eq!(rows.len(), table.rows.len(), "every row of the table is checked");
    for (part, dfdx, torch) in rows {
        let value = table.row(part).count.value();
        assert_eq!((value, value), (dfdx, torch), "{part}");
    }
    assert_eq!(table.total().value(), 821_642);
    assert_eq!(DigitsVit::<Dev>::parameter_table().total().value(), 102_666);
}

#[test]
fn vit_base_parameters() {
    // the same design at ViT-Base/16 sizes: too big to build in a test, counted by formula
    let pt = param_counts();
    assert_eq!(vit_params(3, 224, 16, 768, 3072, 12, 1000), pytorch(&pt, "vit_base_16_224_total"));
    assert_eq!(vit_params(3, 224, 16, 768, 3072, 12, 1000), 86_567_656);
    assert_eq!(VitBase16::<Dev>::NUM_PARAMS, 86_567_656);
}

#[test]
fn digits_model_parameters() {
    let dev = Dev::default();
    let model = DigitsVit::<Dev>::new(&dev);
    assert_eq!(model.num_trainable_params(), vit_params(1, 8, 2, 64, 128, 3, 10));
    assert_eq!(DigitsVit::<Dev>::NUM_PARAMS, model.num_trainable_params());
    let head: Linear<64, 10, f32, Dev> = BuildModule::build(&dev);
    assert_eq!(head.num_trainable_params(), linear(64, 10));
}

#[test]
fn the_cls_token_is_first_and_the_positions_are_added() {
    // with every patch weight zero, the patch tokens are the projection's bias: the tokens are
    // then [cls, bias, bias, ...] + positions, which pins the order and the addition
    let dev = support::seeded_device(5);
    let mut vit = DigitsVit::<Dev>::new(&dev);
    vit.patch_embed.proj.weight = dev.zeros();
    let images = normal_tensor(&dev, 6, (2, Const::<1>, Const::<8>, Const::<8>));
    let tokens = vit.embed(images, Mode::Eval).as_vec();
    let (cls, pos, bias) =
        (vit.cls_token.as_vec(), vit.pos_embed.as_vec(), vit.patch_embed.proj.bias.as_vec());
    let m = cls.len();
    for image in tokens.chunks(17 * m) {
        for (t, token) in image.chunks(m).enumerate() {
            let first = if t == 0 { &cls } else { &bias };
            let expected: Vec<f32> = (0..m).map(|i| first[i] + pos[t * m + i]).collect();
            assert_close(token, &expected, 1e-6);
        }
    }
}

#[test]
fn dropout_is_off_in_evaluation_and_on_in_training() {
    let dev = support::seeded_device(0);
    let vit = DigitsVit::<Dev>::new(&dev);
    let images = normal_tensor(&dev, 1, (3, Const::<1>, Const::<8>, Const::<8>));
    let a = vit.forward(images.clone(), Mode::Eval).as_vec();
    assert_eq!(a, vit.forward(images.clone(), Mode::Eval).as_vec());
    assert_ne!(a, vit.forward(images, Mode::Train).as_vec(), "dropout 0.1 changes the logits");
}

#[test]
fn dynamic_images_are_checked() {
    let dev = Dev::default();
    let vit = DigitsVit::<Dev>::new(&dev);
    let run = |shape: (usize, usize, usize, usize)| {
        let x: Tensor<(usize, usize, usize, usize), f32, Dev> = dev.zeros_like(&shape);
        vit.try_forward_dynamic(x, Mode::Eval).map(|l| l.shape().concrete())
    };
    assert_eq!(run((2, 1, 8, 8)), Ok([2, 10]));
    assert_eq!(run((2, 3, 8, 8)), Err(ImageError::Channels { expected: 1, got: 3 }));
    assert_eq!(run((2, 1, 9, 8)), Err(ImageError::NotDivisible { height: 9, width: 8, patch: 2 }));
    let err = run((2, 1, 16, 16)).unwrap_err();
    assert_eq!(err, ImageError::Size { expected: 8, height: 16, width: 16 });
    assert!(err.to_string().contains("resize the images or build the model with IMG = 16"));
    let err = run((2, 1, 8, 16)).unwrap_err();
    assert!(err.to_string().contains("the model takes square 8x8 images, got 8x16"), "{err}");
}

#[test]
fn embeddings_start_small() {
    // [CLS] and the positions start from N(0, 0.02^2), not torch.randn's N(0, 1)
    assert_eq!(EMBED_INIT_STD, 0.02);
    let dev = support::seeded_device(3);
    let vit = DemoVit::<Dev>::new(&dev);
    let mut values = vit.pos_embed.as_vec();
    values.extend(vit.cls_token.as_vec());
    let n = values.len() as f32; // 17 * 128 + 128 = 2,304
    let mean = values.iter().sum::<f32>() / n;
    let std = (values.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / n).sqrt();
    assert!(mean.abs() < 0.002, "mean {mean}");
    assert!((std - 0.02).abs() < 0.001, "std {std}");
}

#[test]
fn cls_attention_is_row_zero_of_the_last_layer() {
    let dev = support::seeded_device(0);
    let vit = DigitsVit::<Dev>::new(&dev);
    let images = normal_tensor(&dev, 1, (3, Const::<1>, Const::<8>, Const::<8>));
    let maps = vit.cls_attention(images.clone());
    assert_eq!(maps.shape().concrete(), [3, 4, 16]);
    let (_, attention) = vit.forward_with_attention(images, Mode::Eval);
    let last = attention[2].as_vec(); // (3, 4, 17, 17)
    for (row, map) in last.chunks(17 * 17).zip(maps.as_vec().chunks(16)) {
        // query 0's weights on keys 1..17; the weight on key 0 ([CLS] itself) is left out
        assert_eq!(map, &row[1..17]);
        assert!(map.iter().sum::<f32>() < 1.0 && map.iter().all(|&w| w > 0.0));
    }
}

//! Parity with PyTorch: the ViT of the same design (strided `Conv2d`, `[CLS]` in front, learned
//! positions, `nn.TransformerEncoderLayer(norm_first=True)`, final `LayerNorm`, `Linear` on the
//! `[CLS]` output) with the same weights gives the same logits, to 1e-5. Reference values:
//! `fixtures/vit_reference.json`, written by `fixtures/generate_vit.py`.

use ch05_blocks::pytorch::{load_encoder_block, load_norm};
use ch07_vit::{Mode, Vit};
use dfdx::prelude::*;
use serde_json::Value;
use support::fixtures::{floats, load_linear, matrix, size, vector};
use support::{assert_close, Dev};

/// The fixture's sizes: 1x8x8 images, 2x2 patches, d_model 16, 4 heads, d_ff 32, 2 layers.
type SmallVit = Vit<1, 8, 2, 4, 17, 16, 4, 4, 32, 2, 10, f32, Dev>;

fn fixture() -> Value {
    let f = support::fixtures::load(
        concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/vit_reference.json"),
        "fixtures/generate_vit.py",
    );
    f["vit"].clone()
}

/// PyTorch's weights, by PyTorch's names, into our model.
fn load(dev: &Dev, w: &Value) -> SmallVit {
    let mut vit = SmallVit::new(dev);
    vit.set_dropout(0.0);
    // Conv2d weight [16, 1, 2, 2] flattened is the Linear weight [16, 4]
    load_linear(dev, &mut vit.patch_embed.proj, w, "patch_embed.proj");
    vit.cls_token = vector(dev, w, "cls_token"); // [1, 1, 16]
    vit.pos_embed = matrix(dev, w, "pos_embed"); // [1, 17, 16]
    for (i, block) in vit.encoder.layers.iter_mut().enumerate() {
        load_encoder_block(dev, block, w, &format!("encoder.layers.{i}."));
    }
    load_norm(dev, &mut vit.norm, w, "norm");
    load_linear(dev, &mut vit.classifier, w, "classifier");
    vit
}

#[test]
fn fixture_has_the_sizes_of_the_test() {
    let c = &fixture()["config"];
    let sizes = [
        "img_size",
        "patch_size",
        "in_channels",
        "embed_dim",
        "num_heads",
        "num_layers",
        "d_ff",
        "num_classes",
    ]
    .map(|k| size(c, k));
    assert_eq!(sizes, [8, 2, 1, 16, 4, 2, 32, 10]);
    assert_eq!(c["dropout"].as_f64(), Some(0.0));
}

#[test]
fn logits_match_pytorch() {
    let f = fixture();
    let dev = Dev::default();
    let vit = load(&dev, &f["weights"]);
    let x = dev.tensor_from_vec(floats(&f, "x"), (3, Const::<1>, Const::<8>, Const::<8>));
    let logits = vit.forward(x, Mode::Eval);
    assert_eq!(logits.shape().concrete(), [3, 10]);
    assert_close(&logits.as_vec(), &floats(&f, "logits"), 1e-5);
}

#[test]
fn pytorch_silently_drops_what_the_patches_do_not_cover() {
    // recorded from PyTorch: a 30x30 image in 8x8 patches runs and sees only 24x24 pixels; here
    // the same model does not compile (see the crate's shape_errors)
    let f = support::fixtures::load(
        concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/vit_reference.json"),
        "fixtures/generate_vit.py",
    );
    let odd = &f["pytorch_behaviour"]["img_30_patch_8"];
    assert_eq!(size(odd, "tokens"), 10);
    assert_eq!((size(odd, "pixels_seen_per_channel"), size(odd, "pixels_per_channel")), (576, 900));
    // 3 patches of 8 per side cover 24 of the 30 rows and columns: the last 6 are never seen
    assert_eq!(((30 / 8) * 8, 30 - (30 / 8) * 8, 24 * 24), (24, 6, 576));
    assert_eq!(f["torch_version"].as_str(), Some("2.15.0"), "the version the book names");
    let errors = &f["pytorch_behaviour"];
    assert!(errors["one_channel_into_three"]
        .as_str()
        .unwrap()
        .contains("expected input[4, 1, 32, 32] to have 3 channels, but got 1 channels instead"));
    assert!(errors["image_64_into_32"]
        .as_str()
        .unwrap()
        .contains("(65) must match the size of tensor b (17)"));
}

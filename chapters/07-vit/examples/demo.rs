//! The demo Vision Transformer on a batch of random images: the shape at every stage and the
//! parameter count, part by part: `cargo run -p ch07-vit --example demo`.
use ch07_vit::{patchify, DemoVit, Mode, VitBase16};
use dfdx::nn::NumParams;
use dfdx::prelude::*;
use support::{normal_tensor, seeded_device, Dev};

fn main() {
    let dev = seeded_device(0);
    // ANCHOR: demo
    let vit = DemoVit::<Dev>::new(&dev);
    let images = normal_tensor(&dev, 1, (4, Const::<3>, Const::<32>, Const::<32>));
    let patches: Tensor<(usize, usize, Const<192>), f32, Dev> =
        patchify(images.clone(), Const::<8>);
    let tokens = vit.embed(images.clone(), Mode::Eval);
    let (logits, attention) = vit.forward_with_attention(images.clone(), Mode::Eval);
    println!("images:    {:?}", images.shape().concrete());
    println!(
        "patches:   {:?}  ((32 / 8)^2 = 16 patches of 3 * 8 * 8 values)",
        patches.shape().concrete()
    );
    println!("tokens:    {:?}  ([CLS] + 16 patches, d_model 128)", tokens.shape().concrete());
    println!("attention: {} layers of {:?}", attention.len(), attention[0].shape().concrete());
    println!("logits:    {:?}", logits.shape().concrete());
    // ANCHOR_END: demo

    // ANCHOR: parameters
    let block = vit.encoder.layers[0].num_trainable_params();
    println!("patch_embed  {:>7}", vit.patch_embed.num_trainable_params());
    println!("cls_token    {:>7}", vit.cls_token.shape().num_elements());
    println!("pos_embed    {:>7}", vit.pos_embed.shape().num_elements());
    println!("encoder      {:>7}  (4 blocks of {block})", vit.encoder.num_trainable_params());
    println!("norm         {:>7}", vit.norm.num_trainable_params());
    println!("classifier   {:>7}", vit.classifier.num_trainable_params());
    println!("total        {:>7}", vit.num_trainable_params());
    println!("NUM_PARAMS   {:>7}", DemoVit::<Dev>::NUM_PARAMS);
    // ANCHOR_END: parameters

    // ANCHOR: vit_base
    println!(
        "ViT-Base/16 at 224x224: {} patches, {} parameters",
        VitBase16::<Dev>::NUM_PATCHES,
        VitBase16::<Dev>::NUM_PARAMS
    );
    // ANCHOR_END: vit_base
}

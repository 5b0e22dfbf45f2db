//! Parity with PyTorch: `nn.LayerNorm`, `nn.TransformerEncoderLayer` and `nn.TransformerDecoderLayer`
//! (norm_first false and true) with the same weights and inputs give the same outputs, to 1e-5.
//! Reference values: `fixtures/blocks_reference.json`, written by `fixtures/generate_blocks.py`.

use ch01_attention::{broadcast_mask, causal_allowed, keys_allowed, Mask};
use ch05_blocks::pytorch::{load_decoder_block, load_encoder_block};
use ch05_blocks::{
    DecoderBlock, EncoderBlock, LayerNorm, Mode, Placement, PostNorm, PreNorm, StdNorm,
};
use dfdx::prelude::*;
use serde_json::Value;
use support::fixtures::floats;
use support::{assert_close, Dev};

const D: usize = 16;
const H: usize = 4;
const DK: usize = 4;
const FF: usize = 32;

fn fixture() -> Value {
    support::fixtures::load(
        concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/blocks_reference.json"),
        "fixtures/generate_blocks.py",
    )
}

fn flags(v: &Value, key: &str, rows: usize) -> Vec<Vec<bool>> {
    let all: Vec<bool> =
        v[key].as_array().unwrap_or_else(|| panic!("no {key:?}")).iter().map(|x| x == 1).collect();
    all.chunks(all.len() / rows).map(|c| c.to_vec()).collect()
}

/// `true` = padding in the fixture; our masks say `true` = may attend.
fn real_tokens(padding: Vec<Vec<bool>>) -> Vec<Vec<bool>> {
    padding.into_iter().map(|row| row.into_iter().map(|p| !p).collect()).collect()
}

#[test]
fn fixture_has_the_pages_sizes() {
    // d_model 16, 4 heads, d_ff 32, no dropout: the sizes the page and these tests use
    let f = fixture();
    let size = |k: &str| f[k].as_u64().unwrap_or_else(|| panic!("no {k:?}")) as usize;
    assert_eq!((size("d_model"), size("heads"), size("d_ff")), (D, H, FF));
    assert_eq!((D, H, DK, FF), (16, 4, 4, 32));
    assert_eq!(
        (f["encoder_post"]["norm_first"].as_bool(), f["encoder_pre"]["norm_first"].as_bool()),
        (Some(false), Some(true))
    );
}

#[test]
fn layer_norm_matches_pytorch() {
    let dev = Dev::default();
    let f = &fixture()["layer_norm"];
    let mut ln = LayerNorm::<D, f32, Dev>::new(&dev);
    ln.gamma = dev.tensor_from_vec(floats(f, "weight"), (Const::<D>,));
    ln.beta = dev.tensor_from_vec(floats(f, "bias"), (Const::<D>,));
    let x = dev.tensor_from_vec(floats(f, "x"), (2, 3, Const::<D>));
    assert_close(&ln.forward(x.clone()).as_vec(), &floats(f, "output"), 1e-5);

    // the annotated-Transformer style NormLayer formula, evaluated by PyTorch
    let mut sn = StdNorm::<D, f32, Dev>::new(&dev);
    sn.gamma = ln.gamma.clone();
    sn.beta = ln.beta.clone();
    assert_close(&sn.forward(x).as_vec(), &floats(f, "std_norm_output"), 1e-5);
}

fn encoder_parity<P: Placement>(case: &str) {
    let dev = Dev::default();
    let f = &fixture()[case];
    assert_eq!(f["norm_first"].as_bool(), Some(P::NORM_FIRST), "{case} is for the other placement");
    let w = &f["weights"];
    let mut block = EncoderBlock::<D, H, DK, FF, P, f32, Dev>::new(&dev);
    load_encoder_block(&dev, &mut block, w, "");

    let x = dev.tensor_from_vec(floats(f, "x"), (2, 5, Const::<D>));
    let real = keys_allowed(&dev, &real_tokens(flags(f, "key_padding", 2)));
    let mask: Mask<usize, Const<H>, usize, usize, Dev> =
        real.broadcast_like::<_, Axes2<1, 2>>(&(2, Const::<H>, 5, 5));
    let (out, _) = block.forward(x, Some(&mask), Mode::Eval);
    assert_close(&out.as_vec(), &floats(f, "output"), 1e-5);
}

fn decoder_parity<P: Placement>(case: &str) {
    let dev = Dev::default();
    let f = &fixture()[case];
    assert_eq!(f["norm_first"].as_bool(), Some(P::NORM_FIRST), "{case} is for the other placement");
    let w = &f["weights"];
    let mut block = DecoderBlock::<D, H, DK, FF, P, f32, Dev>::new(&dev);
    load_decoder_block(&dev, &mut block, w, "");

    let tgt = dev.tensor_from_vec(floats(f, "tgt"), (2, 4, Const::<D>));
    let memory = dev.tensor_from_vec(floats(f, "memory"), (2, 6, Const::<D>));
    let causal = broadcast_mask(causal_allowed(&dev, 4), 2, Const::<H>);
    let real = keys_allowed(&dev, &real_tokens(flags(f, "memory_padding", 2)));
    let memory_mask: Mask<usize, Const<H>, usize, usize, Dev> =
        real.broadcast_like::<_, Axes2<1, 2>>(&(2, Const::<H>, 4, 6));
    let (out, weights) = block.forward(tgt, &memory, Some(&causal), Some(&memory_mask), Mode::Eval);
    assert_close(&out.as_vec(), &floats(f, "output"), 1e-5);
    // the padded memory position of sequence 1 gets no weight from any query of any head
    let cross = weights.cross_attn.as_vec();
    for (i, &v) in cross.iter().enumerate().skip(H * 4 * 6) {
        if i % 6 == 5 {
            assert_eq!(v, 0.0, "cross-attention weight {i} on a padded memory position");
        }
    }
}

#[test]
fn encoder_layer_post_norm_matches_pytorch() {
    encoder_parity::<PostNorm>("encoder_post");
}

#[test]
fn encoder_layer_pre_norm_matches_pytorch() {
    encoder_parity::<PreNorm>("encoder_pre");
}

#[test]
fn decoder_layer_post_norm_matches_pytorch() {
    decoder_parity::<PostNorm>("decoder_post");
}

#[test]
fn decoder_layer_pre_norm_matches_pytorch() {
    decoder_parity::<PreNorm>("decoder_pre");
}

#[test]
fn parameter_counts_match_pytorch() {
    use ch05_blocks::{DemoDecoderBlock, DemoEncoderBlock, DemoSeq2Seq, DemoTransformer};
    use dfdx::nn::NumParams;
    let dev = Dev::default();
    // the PyTorch version the book names
    assert_eq!(fixture()["torch_version"].as_str(), Some("2.15.0"));
    let counts = &fixture()["param_counts"];
    let torch = |k: &str| counts[k].as_u64().unwrap_or_else(|| panic!("no count {k:?}")) as usize;
    assert_eq!(
        DemoEncoderBlock::<PostNorm, Dev>::new(&dev).num_trainable_params(),
        torch("encoder_layer_64_8_256")
    );
    assert_eq!(
        DemoDecoderBlock::<PostNorm, Dev>::new(&dev).num_trainable_params(),
        torch("decoder_layer_64_8_256")
    );
    assert_eq!(
        DemoSeq2Seq::<Dev>::new(&dev).num_trainable_params(),
        torch("seq2seq_1000_1000_128_8_3_512")
    );
    assert_eq!(
        DemoTransformer::<Dev>::new(&dev).num_trainable_params(),
        torch("transformer_64_8_3_3_256")
    );
}

//! Parameter counts of the book's demo configurations, equal to PyTorch's to the last parameter.
//! PyTorch's numbers come from `fixtures/generate_blocks.py` (`sum(p.numel() for p in m.parameters())`).

use ch03_multi_head::MultiHeadAttention;
use ch04_positions::TokenEmbedding;
use ch05_blocks::{
    DemoDecoderBlock, DemoEncoderBlock, DemoSeq2Seq, DemoTransformer, EncoderBlock, FeedForward,
    LayerNorm, PostNorm, PreNorm,
};
use dfdx::nn::modules::Linear;
use dfdx::nn::{BuildModule, NumParams};
use support::Dev;

/// `Linear(i, o)` with bias.
const fn linear(i: usize, o: usize) -> usize {
    i * o + o
}

/// Multi-head attention: four `d x d` projections with biases.
const fn mha(d: usize) -> usize {
    4 * linear(d, d)
}

/// LayerNorm: gamma and beta.
const fn norm(d: usize) -> usize {
    2 * d
}

const fn ffn(d: usize, f: usize) -> usize {
    linear(d, f) + linear(f, d)
}

const fn encoder_block(d: usize, f: usize) -> usize {
    mha(d) + ffn(d, f) + 2 * norm(d)
}

const fn decoder_block(d: usize, f: usize) -> usize {
    2 * mha(d) + ffn(d, f) + 3 * norm(d)
}

#[test]
fn worked_example_parts_d64() {
    let dev = Dev::default();
    assert_eq!(MultiHeadAttention::<64, 8, 8, f32, Dev>::new(&dev).num_trainable_params(), 16_640);
    assert_eq!(FeedForward::<64, 256, f32, Dev>::new(&dev).num_trainable_params(), 16_640 + 16_448);
    assert_eq!(LayerNorm::<64, f32, Dev>::new(&dev).num_trainable_params(), 128);
    assert_eq!(
        (mha(64), linear(64, 256), linear(256, 64), norm(64)),
        (16_640, 16_640, 16_448, 128)
    );
    // the number of heads does not appear: 4 heads of 16 have as many weights as 8 heads of 8
    assert_eq!(MultiHeadAttention::<64, 4, 16, f32, Dev>::new(&dev).num_trainable_params(), 16_640);
}

#[test]
fn worked_example_parts_d128() {
    let dev = Dev::default();
    // attention 4 (128^2 + 128); feed-forward (128 * 512 + 512) + (512 * 128 + 128)
    assert_eq!(mha(128), 66_048);
    assert_eq!((linear(128, 512), linear(512, 128), ffn(128, 512)), (66_048, 65_664, 131_712));
    assert_eq!(
        MultiHeadAttention::<128, 8, 16, f32, Dev>::new(&dev).num_trainable_params(),
        66_048
    );
    assert_eq!(FeedForward::<128, 512, f32, Dev>::new(&dev).num_trainable_params(), 131_712);
    // blocks: 66,048 + 131,712 + 512 and 2 * 66,048 + 131,712 + 768
    assert_eq!((norm(128), 3 * norm(128)), (256, 768));
    assert_eq!(encoder_block(128, 512), 66_048 + 131_712 + 512);
    assert_eq!((encoder_block(128, 512), decoder_block(128, 512)), (198_272, 264_576));
    assert_eq!(
        EncoderBlock::<128, 8, 16, 512, PreNorm, f32, Dev>::new(&dev).num_trainable_params(),
        198_272
    );
    // an embedding table of 1000 x 128 and the output layer 128 -> 1000
    assert_eq!((1000 * 128, linear(128, 1000)), (128_000, 129_000));
    assert_eq!(
        TokenEmbedding::<1000, 128, Dev>::new(&dev).embedding.num_trainable_params(),
        128_000
    );
    let out: Linear<128, 1000, f32, Dev> = BuildModule::build(&dev);
    assert_eq!(out.num_trainable_params(), 129_000);
    assert_eq!(2 * 128_000 + 3 * 198_272 + 3 * 264_576 + 129_000, 1_773_544);
}

#[test]
fn worked_example_encoder_block_49984() {
    let dev = Dev::default();
    assert_eq!(encoder_block(64, 256), 49_984);
    assert_eq!(encoder_block(64, 256), 16_640 + 33_088 + 2 * 128);
    assert_eq!(DemoEncoderBlock::<PreNorm, Dev>::new(&dev).num_trainable_params(), 49_984);
    // where the norm sits changes nothing in the count
    assert_eq!(DemoEncoderBlock::<PostNorm, Dev>::new(&dev).num_trainable_params(), 49_984);
}

#[test]
fn worked_example_decoder_block_66752() {
    let dev = Dev::default();
    assert_eq!(decoder_block(64, 256), 66_752);
    assert_eq!(decoder_block(64, 256), 2 * 16_640 + 33_088 + 3 * 128);
    assert_eq!(DemoDecoderBlock::<PreNorm, Dev>::new(&dev).num_trainable_params(), 66_752);
}

#[test]
fn worked_example_seq2seq_1773544() {
    let dev = Dev::default();
    let expected = 2 * 1000 * 128
        + 3 * encoder_block(128, 512)
        + 3 * decoder_block(128, 512)
        + linear(128, 1000);
    assert_eq!(expected, 1_773_544);
    assert_eq!(DemoSeq2Seq::<Dev>::new(&dev).num_trainable_params(), 1_773_544);
}

#[test]
fn worked_example_nn_transformer_350464() {
    let dev = Dev::default();
    let expected = 3 * encoder_block(64, 256) + 3 * decoder_block(64, 256) + 2 * norm(64);
    assert_eq!(expected, 350_464);
    assert_eq!(3 * 49_984 + 3 * 66_752 + 2 * 128, 350_464);
    assert_eq!(DemoTransformer::<Dev>::new(&dev).num_trainable_params(), 350_464);
}

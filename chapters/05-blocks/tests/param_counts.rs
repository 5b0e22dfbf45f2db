//! Parameter counts of the sources' demo configurations, equal to PyTorch's to the last parameter.
//! PyTorch's numbers come from `fixtures/generate_blocks.py` (`sum(p.numel() for p in m.parameters())`).

use ch03_multi_head::MultiHeadAttention;
use ch05_blocks::FeedForward;
use ch05_blocks::{DecoderBlock, EncoderBlock, LayerNorm, PostNorm, PreNorm, Seq2Seq, Transformer};
use dfdx::nn::NumParams;
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
}

#[test]
fn worked_example_encoder_block_49984() {
    let dev = Dev::default();
    assert_eq!(encoder_block(64, 256), 49_984);
    assert_eq!(
        EncoderBlock::<64, 8, 8, 256, PreNorm, f32, Dev>::new(&dev).num_trainable_params(),
        49_984
    );
    // where the norm sits changes nothing in the count
    assert_eq!(
        EncoderBlock::<64, 8, 8, 256, PostNorm, f32, Dev>::new(&dev).num_trainable_params(),
        49_984
    );
}

#[test]
fn worked_example_decoder_block_66752() {
    let dev = Dev::default();
    assert_eq!(decoder_block(64, 256), 66_752);
    assert_eq!(
        DecoderBlock::<64, 8, 8, 256, PreNorm, f32, Dev>::new(&dev).num_trainable_params(),
        66_752
    );
}

#[test]
fn worked_example_seq2seq_1773544() {
    let dev = Dev::default();
    let expected = 2 * 1000 * 128
        + 3 * encoder_block(128, 512)
        + 3 * decoder_block(128, 512)
        + linear(128, 1000);
    assert_eq!(expected, 1_773_544);
    let model = Seq2Seq::<1000, 1000, 128, 8, 16, 512, 3, PreNorm, f32, Dev>::new(&dev);
    assert_eq!(model.num_trainable_params(), 1_773_544);
}

#[test]
fn worked_example_nn_transformer_350464() {
    let dev = Dev::default();
    let expected = 3 * encoder_block(64, 256) + 3 * decoder_block(64, 256) + 2 * norm(64);
    assert_eq!(expected, 350_464);
    let model = Transformer::<64, 8, 8, 256, 3, 3, PostNorm, f32, Dev>::new(&dev);
    assert_eq!(model.num_trainable_params(), 350_464);
}

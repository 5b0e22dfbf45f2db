//! The configurations this book runs, by name (as candle names its `Config` presets), so that no
//! example or test spells out ten parameters.

use crate::{
    Decoder, DecoderBlock, Encoder, EncoderBlock, PostNorm, PreNorm, Seq2Seq, Transformer,
};

// ANCHOR: demo
/// `d_model` 64, 8 heads of 8, `d_ff` 256: `nn.TransformerEncoderLayer(64, 8, 256)`, the demo
/// block of the chapter (49,984 parameters).
pub type DemoEncoderBlock<P, Dev> = EncoderBlock<64, 8, 8, 256, P, f32, Dev>;

/// `d_model` 64, 8 heads of 8, `d_ff` 256: `nn.TransformerDecoderLayer(64, 8, 256)` (66,752
/// parameters).
pub type DemoDecoderBlock<P, Dev> = DecoderBlock<64, 8, 8, 256, P, f32, Dev>;

/// `nn.Transformer(d_model=64, nhead=8, num_encoder_layers=3, num_decoder_layers=3,
/// dim_feedforward=256)`, post-norm as PyTorch's default (350,464 parameters).
pub type DemoTransformer<Dev> = Transformer<64, 8, 8, 256, 3, 3, PostNorm, f32, Dev>;

/// Token ids to logits: vocabularies of 1000 and 1000, `d_model` 128, 8 heads of 16, `d_ff` 512,
/// 3 + 3 pre-norm blocks (1,773,544 parameters).
pub type DemoSeq2Seq<Dev> = Seq2Seq<1000, 1000, 128, 8, 16, 512, 3, PreNorm, f32, Dev>;
// ANCHOR_END: demo

/// `d_model` 16, 4 heads of 4, `d_ff` 32: the size of the PyTorch parity fixture, small enough for
/// figures and property tests.
pub type TinyEncoderBlock<P, Dev> = EncoderBlock<16, 4, 4, 32, P, f32, Dev>;

/// The decoder block of [`TinyEncoderBlock`]'s size.
pub type TinyDecoderBlock<P, Dev> = DecoderBlock<16, 4, 4, 32, P, f32, Dev>;

/// `L` [`TinyEncoderBlock`]s.
pub type TinyEncoder<const L: usize, P, Dev> = Encoder<16, 4, 4, 32, L, P, f32, Dev>;

/// `L` [`TinyDecoderBlock`]s.
pub type TinyDecoder<const L: usize, P, Dev> = Decoder<16, 4, 4, 32, L, P, f32, Dev>;

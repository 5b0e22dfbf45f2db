//! Whisper (Radford et al. 2022) on the book's blocks: an encoder that hears 30 seconds of
//! log-mel spectrogram, a decoder that writes text while attending to what the encoder heard.
//!
//! * [`encoder`]: two convolutions with GELU, the sinusoidal positions, chapter 5's pre-norm
//!   encoder blocks, a last layer norm: `(80, 3000)` frames in, `(1500, 384)` out;
//! * [`decoder`]: the token table and learned positions, chapter 5's pre-norm decoder blocks
//!   (masked self-attention, cross-attention over the encoder's output, the feed-forward network),
//!   a last layer norm, and the token table again for the logits; the whole sequence at once
//!   ([`Whisper::decode_all`]) or one token at a time on chapter 10's KV cache ([`Decoding`]);
//! * [`load`]: the weights from CTranslate2's `model.bin`.

pub mod decoder;
pub mod encoder;
pub mod load;

pub use decoder::{CrossKv, Decoding, Step};
pub use encoder::{sinusoids, Conv1d};

use crate::config::{FF, HEADS, HEAD_DIM, N_MELS, WIDTH};
use ch05_blocks::{Decoder, Encoder, LayerNorm, PreNorm};
use dfdx::prelude::*;

/// The blocks of tiny.en's encoder: chapter 5's, pre-norm, GELU.
pub type AudioBlocks<Dev> =
    Encoder<WIDTH, HEADS, HEAD_DIM, FF, { crate::config::ENCODER_LAYERS }, PreNorm, f32, Dev>;
/// The blocks of tiny.en's decoder.
pub type TextBlocks<Dev> =
    Decoder<WIDTH, HEADS, HEAD_DIM, FF, { crate::config::DECODER_LAYERS }, PreNorm, f32, Dev>;

/// Whisper tiny.en.
///
/// Hugging Face equivalent: `WhisperForConditionalGeneration` (`model.encoder`, `model.decoder`,
/// `proj_out` tied to `model.decoder.embed_tokens`).
// ANCHOR: whisper
#[derive(Clone, Debug)]
pub struct Whisper<Dev: Device<f32>> {
    /// 80 mel bands -> 384, width 3
    pub conv1: Conv1d<N_MELS, Dev>,
    /// 384 -> 384, width 3, stride 2: 3,000 frames become 1,500 positions
    pub conv2: Conv1d<WIDTH, Dev>,
    /// `(1500, 384)`, sinusoids, fixed
    pub audio_positions: Tensor<(usize, Const<WIDTH>), f32, Dev>,
    pub encoder: AudioBlocks<Dev>,
    pub encoder_norm: LayerNorm<WIDTH, f32, Dev>,
    /// `(51864, 384)`: each token's vector in, and each token's logit out
    pub tokens: Tensor<(usize, Const<WIDTH>), f32, Dev>,
    /// `(448, 384)`, learned
    pub text_positions: Tensor<(usize, Const<WIDTH>), f32, Dev>,
    pub decoder: TextBlocks<Dev>,
    pub decoder_norm: LayerNorm<WIDTH, f32, Dev>,
}
// ANCHOR_END: whisper

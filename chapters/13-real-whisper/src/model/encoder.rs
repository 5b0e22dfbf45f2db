//! The audio encoder: the spectrogram through two convolutions, the positions added, chapter 5's
//! pre-norm blocks.

use ch05_blocks::Mode;
use dfdx::prelude::*;

use super::Whisper;
use crate::config::{AUDIO_POSITIONS, WIDTH};
use crate::mel::{Mel, N_FRAMES};

/// A convolution over time of width 3 (padding 1), from `C` channels to the model's width.
///
/// Output frame `t` sees input frames `s·t - 1`, `s·t` and `s·t + 1` (stride `s`): it is three
/// matrix products, one per tap, of the input shifted by one frame, summed. PyTorch's
/// `nn.Conv1d(C, 384, kernel_size=3, padding=1, stride=s)` stores the same numbers as one
/// `(384, C, 3)` weight; `taps[k]` is its `[:, :, k]`.
///
/// # Generics
/// - `C`: input channels (80 mel bands, then 384); `Dev`: the device.
#[derive(Clone, Debug)]
pub struct Conv1d<const C: usize, Dev: Device<f32>> {
    pub taps: [Tensor<(Const<WIDTH>, Const<C>), f32, Dev>; 3],
    pub bias: Tensor<(Const<WIDTH>,), f32, Dev>,
}

impl<const C: usize, Dev: Device<f32>> Conv1d<C, Dev> {
    /// `(frames, C)` in, `(frames / stride, WIDTH)` out.
    // ANCHOR: conv
    pub fn forward(
        &self,
        x: Tensor<(usize, Const<C>), f32, Dev>,
        stride: usize,
    ) -> Tensor<(usize, Const<WIDTH>), f32, Dev> {
        let dev = x.device().clone();
        let frames = x.shape().0;
        let out = frames.div_ceil(stride);
        // one frame of zeros on each side: padding 1
        let zero = dev.zeros_like(&(1, Const::<C>));
        let padded = ((zero.clone(), x).concat_along(Axis::<0>), zero).concat_along(Axis::<0>);
        let mut y = self.bias.clone().broadcast_like(&(out, Const::<WIDTH>));
        for (k, tap) in self.taps.iter().enumerate() {
            // padded row stride·t + k is input frame stride·t + k - 1
            let rows = dev.tensor_from_vec((0..out).map(|t| stride * t + k).collect(), (out,));
            y = y + padded.clone().gather(rows).matmul(tap.clone().permute());
        }
        y
    }
    // ANCHOR_END: conv
}

/// Whisper's fixed positions: for `channels / 2` frequencies `f_i = 10000^(-i / (channels/2 - 1))`,
/// position `p` gets `sin(p f_i)` in the first half of its vector and `cos(p f_i)` in the
/// second. Chapter 4's sinusoids interleave sine and cosine and space the frequencies by
/// `10000^(-2i / d)`; the idea is the same.
// ANCHOR: sinusoids
pub fn sinusoids(positions: usize, channels: usize) -> Vec<f32> {
    let half = channels / 2;
    let step = 10_000f64.ln() / (half - 1) as f64;
    let mut out = vec![0.0; positions * channels];
    for p in 0..positions {
        for i in 0..half {
            let angle = p as f64 * (-step * i as f64).exp();
            out[p * channels + i] = angle.sin() as f32;
            out[p * channels + half + i] = angle.cos() as f32;
        }
    }
    out
}
// ANCHOR_END: sinusoids

impl<Dev: Device<f32>> Whisper<Dev> {
    /// The spectrogram as the encoder takes it: `(frames, 80)`, one row per 10 ms.
    pub fn frames(&self, mel: &Mel) -> Tensor<(usize, Const<80>), f32, Dev> {
        let dev = self.tokens.device();
        let bands: Tensor<(Const<80>, usize), f32, Dev> =
            dev.tensor_from_vec(mel.values.clone(), (Const::<80>, mel.frames));
        bands.permute()
    }

    /// What the encoder heard: `(1, 1500, 384)` for a 30-second spectrogram, and each block's
    /// self-attention weights.
    ///
    /// # Panics
    /// Unless the spectrogram has 3,000 frames (the positions cover 30 s, and Whisper was trained
    /// on exactly that).
    // ANCHOR: encode
    pub fn encode(
        &self,
        mel: &Mel,
    ) -> (
        Tensor<(usize, usize, Const<WIDTH>), f32, Dev>,
        Vec<Tensor<(usize, Const<6>, usize, usize), f32, Dev>>,
    ) {
        assert_eq!(mel.frames, N_FRAMES, "Whisper's encoder reads 30 s: 3,000 frames");
        let x = self.conv1.forward(self.frames(mel), 1).accurate_gelu(); // (3000, 384)
        let x = self.conv2.forward(x, 2).accurate_gelu(); // (1500, 384)
        let x = x + self.audio_positions.clone();
        let x = x.reshape_like(&(1, AUDIO_POSITIONS, Const::<WIDTH>));
        let (x, weights) = self.encoder.forward(x, None, Mode::Eval);
        (self.encoder_norm.forward(x), weights)
    }
    // ANCHOR_END: encode
}

//! The encoder on slices.

use ch08_efficient::fast::tiled_on;
use ch08_efficient::{Full, TILES};
use ch12_real_bert::fast::linear::Then;
use ch12_real_bert::fast::ops::{merge_heads, norm_row, split_heads};

use super::{FastWhisper, Norm, EPS};
use crate::config::{HEADS, HEAD_DIM, WIDTH};
use crate::mel::Mel;

/// Each row of `x` (`rows × width`) normalised into a new buffer.
pub(super) fn normed(x: &[f32], (gamma, beta): &Norm) -> Vec<f32> {
    let mut out = x.to_vec();
    out.chunks_exact_mut(gamma.len()).for_each(|row| norm_row(row, gamma, beta, EPS));
    out
}

/// `x += y`, element by element.
pub(super) fn add(x: &mut [f32], y: &[f32]) {
    x.iter_mut().zip(y).for_each(|(a, b)| *a += b);
}

/// Frames `(frames, channels)` as rows of three neighbours side by side for a convolution of
/// width 3, padding 1 and `stride`: row `t` holds frames `s·t - 1`, `s·t` and `s·t + 1`.
fn windows(x: &[f32], channels: usize, stride: usize) -> Vec<f32> {
    let frames = x.len() / channels;
    let out = frames.div_ceil(stride);
    let mut rows = vec![0.0; out * 3 * channels];
    for t in 0..out {
        for k in 0..3 {
            let Some(f) = (stride * t + k).checked_sub(1).filter(|&f| f < frames) else { continue };
            rows[(t * 3 + k) * channels..][..channels]
                .copy_from_slice(&x[f * channels..][..channels]);
        }
    }
    rows
}

impl FastWhisper {
    /// What the encoder heard: `(1500, 384)`, row-major.
    // ANCHOR: fast_encode
    pub fn encode(&self, mel: &Mel) -> Vec<f32> {
        // the spectrogram as rows of 80 bands, one per frame
        let frames: Vec<f32> =
            (0..mel.frames).flat_map(|f| (0..80).map(move |b| mel.at(b, f))).collect();
        let x = self.conv1.forward(&windows(&frames, 80, 1), Then::Gelu);
        let mut x = self.conv2.forward(&windows(&x, WIDTH, 2), Then::Gelu);
        add(&mut x, &self.audio_positions);
        for layer in &self.encoder {
            let qkv = layer.qkv.forward(&normed(&x, &layer.norm1), Then::Nothing);
            let [q, k, v] = [0, 1, 2].map(|part| split_heads(&qkv, 3, part, HEADS, HEAD_DIM));
            let mut context = Vec::with_capacity(x.len());
            merge_heads(&tiled_on(self.isa, &q, &k, &v, &Full, TILES), &mut context);
            add(&mut x, &layer.out.forward(&context, Then::Nothing));
            let hidden = layer.ffn1.forward(&normed(&x, &layer.norm2), Then::Gelu);
            add(&mut x, &layer.ffn2.forward(&hidden, Then::Nothing));
        }
        normed(&x, &self.encoder_norm)
    }
    // ANCHOR_END: fast_encode
}

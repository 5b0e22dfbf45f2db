//! The chapter's figures, built from the same functions the text runs. `cargo xtask figures`
//! writes them into the book (`book/src/figures/`); the notebook shows them inline.

use crate::clips::{Clip, CLIPS};
use crate::mel::{log_mel, HOP, N_MELS};
use support::{Heatmap, Svg};

/// Frames and bands averaged into one cell of the spectrogram figure: 40 ms by two bands.
const POOL: (usize, usize) = (4, 2);

/// What Whisper hears of a clip: its log-mel spectrogram up to the end of the speech, low bands
/// at the bottom, averaged over 40 ms and two bands so that the figure stays small.
pub fn spectrogram(clip: &Clip) -> Heatmap {
    let samples = clip.samples();
    let mel = log_mel(&samples).expect("a clip shorter than 30 s");
    let cols = samples.len().div_ceil(HOP * POOL.0);
    let rows = N_MELS / POOL.1;
    let mut values = Vec::with_capacity(rows * cols);
    for row in (0..rows).rev() {
        for col in 0..cols {
            let mut sum = 0.0;
            for band in row * POOL.1..(row + 1) * POOL.1 {
                for frame in col * POOL.0..(col + 1) * POOL.0 {
                    sum += mel.at(band, frame);
                }
            }
            values.push(sum / (POOL.0 * POOL.1) as f32);
        }
    }
    let seconds: Vec<String> =
        (0..cols).map(|c| format!("{:.1}", (c * POOL.0 * HOP) as f32 / 16_000.0)).collect();
    let bands: Vec<String> = (0..rows).rev().map(|r| (r * POOL.1).to_string()).collect();
    Heatmap::new(format!("Log-mel spectrogram of clip {}", clip.name()), values, rows, cols)
        .labels(&bands, &seconds)
        .axes("seconds", "mel band")
        .decimals(None)
        .tick_every(10)
}

/// Every figure of the chapter with its file name.
pub fn all() -> Vec<(&'static str, Svg)> {
    vec![("ch13-spectrogram.svg", spectrogram(&CLIPS[1]).to_svg())]
}

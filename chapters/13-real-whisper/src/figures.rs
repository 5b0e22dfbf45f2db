//! The chapter's figures, built from the same functions the text runs. `cargo xtask figures`
//! writes them into the book (`book/src/figures/`); the notebook shows them inline.

use crate::clips::{Clip, CLIPS};
use crate::heads::{HeadMap, HeadsReading};
use crate::mel::{log_mel, HOP, N_MELS};
use support::plot::side_by_side;
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

/// `(rows, positions)` values averaged over `pool` positions at a time (the last group may be
/// shorter).
fn pooled(values: &[f32], rows: usize, positions: usize, pool: usize) -> (Vec<f32>, usize) {
    let cols = positions.div_ceil(pool);
    let mut out = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let cells =
                &values[r * positions + c * pool..r * positions + ((c + 1) * pool).min(positions)];
            out.push(cells.iter().sum::<f32>() / cells.len() as f32);
        }
    }
    (out, cols)
}

/// Seconds at the start of each group of `pool` positions (20 ms each), written on every
/// `every`-th column only, so that every token down the side keeps its label.
fn seconds(cols: usize, pool: usize, every: usize) -> Vec<String> {
    (0..cols)
        .map(|c| {
            if c % every == 0 {
                format!("{:.1}", (c * pool) as f32 * 0.02)
            } else {
                String::new()
            }
        })
        .collect()
}

/// The tokens down the side, as the reader sees them.
fn token_labels(reading: &HeadsReading) -> Vec<String> {
    reading
        .pieces
        .iter()
        .map(|p| format!("{:?}", p.trim_end()).trim_matches('"').to_string())
        .collect()
}

/// The alignment matrix of a committed reading: the eight alignment heads standardised, smoothed
/// and averaged, tokens down the side and seconds along the bottom (40 ms a column).
pub fn alignment(reading: &HeadsReading) -> Heatmap {
    let (values, cols) = pooled(&reading.matrix, reading.rows(), reading.positions, 2);
    Heatmap::new(format!("Alignment heads, clip {}", reading.clip), values, reading.rows(), cols)
        .labels(&token_labels(reading), &seconds(cols, 2, 10))
        .axes("seconds", "token written")
        .decimals(None)
}

/// One head's map, 200 ms a column, titled with its layer, head and the share of its weight near
/// the path (a star for the alignment heads).
fn head(reading: &HeadsReading, h: &HeadMap) -> Heatmap {
    let (values, cols) = pooled(&h.weights, reading.rows(), reading.positions, 10);
    let star = if h.alignment { " *" } else { "" };
    let title = format!("L{} H{}{star}: {:.2} near", h.layer, h.head, reading.near_path(h));
    Heatmap::new(title, values, reading.rows(), cols)
        .labels(&token_labels(reading), &seconds(cols, 10, 5))
        .axes("seconds", "token")
        .decimals(None)
        .range(0.0, 0.5)
}

/// All 24 cross-attention heads of the decoder on a committed reading, a layer to a row.
pub fn all_heads(reading: &HeadsReading) -> Svg {
    let maps: Vec<Svg> = reading.heads.iter().map(|h| head(reading, h).to_svg()).collect();
    side_by_side(&maps, 6, 0.4)
}

/// Every figure of the chapter with its file name.
pub fn all() -> Vec<(&'static str, Svg)> {
    let reading = HeadsReading::committed();
    vec![
        ("ch13-spectrogram.svg", spectrogram(&CLIPS[1]).to_svg()),
        ("ch13-alignment.svg", alignment(&reading).to_svg()),
        ("ch13-heads.svg", all_heads(&reading)),
    ]
}

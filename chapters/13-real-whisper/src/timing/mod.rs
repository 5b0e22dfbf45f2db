//! Where each word was heard: a few cross-attention heads of Whisper's decoder look at the moment
//! of the recording each token came from, so their weights, lined up by dynamic time warping,
//! give every word a start and an end (Radford et al. 2022; the method of Whisper's own
//! `timing.py`, which faster-whisper runs too).
//!
//! 1. **Forced decoding.** The transcript is read by the decoder once more, whole:
//!    `<|startoftranscript|><|notimestamps|>` + its tokens + `<|endoftext|>`. Row `i` of a
//!    cross-attention map is where the decoder looked while predicting token `i`.
//! 2. **The alignment heads.** `config.json` names the heads (layer, head) whose maps follow the
//!    speech; only they are kept, cut to the frames that hold speech and renormalised.
//! 3. **Normalise, smooth, average** ([`alignment_matrix`]): every frame's column is standardised
//!    over all the rows of the forced sequence, then the rows that predict the text are kept, each
//!    smoothed by a median filter 7 frames wide, and the heads are averaged.
//! 4. **Dynamic time warping** ([`dtw`]): the monotonic path through (token, frame) of largest
//!    total weight; a token starts at the first frame of the path on its row.
//! 5. **Words** ([`words`](mod@words)): tokens are joined into words at spaces and punctuation,
//!    each word takes the start of its first token and the start of the next word's first token,
//!    and punctuation is merged into its word.
//!
//! The encoder's positions are 20 ms apart (3,000 frames of 10 ms, halved by the second
//! convolution), so every time is a multiple of 0.02 s before Whisper's last adjustments.

use std::ops::Range;

mod dtw;
pub mod words;

pub use dtw::dtw;
pub use words::{split_words, word_times, Word};

use crate::tokenizer::{Specials, WhisperTokenizer};

/// The sequence the decoder reads again to align a transcript: `<|startoftranscript|>`
/// `<|notimestamps|>`, the transcript's tokens, `<|endoftext|>`.
pub fn forced(s: Specials, tokens: &[u32]) -> Vec<u32> {
    [s.start, s.no_timestamps].into_iter().chain(tokens.iter().copied()).chain([s.end]).collect()
}

/// The rows of a cross-attention map over the [`forced`] sequence
/// ([`Transcriber::cross_attention`](crate::Transcriber::cross_attention)) that predict the
/// transcript's tokens and its end: all but the first (`<|startoftranscript|>`'s, which predicts
/// `<|notimestamps|>`) and the last (`<|endoftext|>`'s), as Whisper's `timing.py` cuts them.
pub fn text_rows(rows: usize) -> std::ops::Range<usize> {
    1..rows - 1
}

/// What the alignment heads give a transcript: the matrix, the path through it, the words.
#[derive(Clone, Debug, PartialEq)]
pub struct Alignment {
    /// [`alignment_matrix`]: a row per token of the transcript and one for its end, `frames`
    /// columns
    pub matrix: Vec<f32>,
    /// encoder positions (20 ms each) that heard speech
    pub frames: usize,
    /// [`dtw`]'s `(row, frame)` cells
    pub path: Vec<(usize, usize)>,
    pub words: Vec<Word>,
}

impl Alignment {
    /// The matrix's rows.
    pub fn rows(&self) -> usize {
        self.matrix.len() / self.frames.max(1)
    }
}

/// Steps 3 to 5 for the transcript `tokens`: `heads` are the alignment heads' weights over the
/// forced sequence (`rows` rows of `positions` each) and `speech_frames` the 10 ms frames that
/// held speech.
pub fn align(
    tokenizer: &WhisperTokenizer,
    tokens: &[u32],
    heads: &[Vec<f32>],
    (rows, positions): (usize, usize),
    speech_frames: usize,
) -> Alignment {
    let frames = speech_frames / 2; // the second convolution halves the frames
    let text = text_rows(rows);
    let matrix = alignment_matrix(heads, rows, positions, frames, text.clone());
    let path = dtw(&matrix, text.len(), frames);
    let words = word_times(tokenizer, tokens, &path, speech_frames as f64 / 100.0);
    Alignment { matrix, frames, path, words }
}

/// Encoder positions per second: 3,000 frames of 10 ms, halved by the second convolution.
pub const POSITIONS_PER_SECOND: f64 = 50.0;
/// The width of the median filter over frames.
pub const MEDIAN_WIDTH: usize = 7;

/// The alignment matrix: `(text.len(), frames)`, from the alignment heads' cross-attention weights.
///
/// `heads[h]` is head `h`'s weights, `rows` rows (every token of the forced sequence) of at least
/// `frames` values each (a row's whole length is `stride`); only the first `frames` of a row (the
/// positions that heard speech) are kept, and renormalised to sum to one (the softmax over those
/// frames alone). Each frame's column is standardised over all `rows`, the prompt's and the end's
/// included, as Whisper's `timing.py` and CTranslate2 do; only then are the rows cut to `text`, the
/// rows that predict the transcript's tokens and its end.
// ANCHOR: alignment_matrix
pub fn alignment_matrix(
    heads: &[Vec<f32>],
    rows: usize,
    stride: usize,
    frames: usize,
    text: Range<usize>,
) -> Vec<f32> {
    assert!(text.end <= rows, "text rows {text:?} beyond the {rows} rows");
    let mut mean = vec![0.0f32; text.len() * frames];
    for head in heads {
        // 2. the speech frames only, each row a distribution again
        let mut w: Vec<f32> = (0..rows)
            .flat_map(|r| {
                let row = &head[r * stride..r * stride + frames];
                let sum: f32 = row.iter().sum();
                row.iter().map(move |x| x / sum)
            })
            .collect();
        // 3a. standardise each frame's column over every row (no epsilon, as Whisper)
        for f in 0..frames {
            let column: Vec<f32> = (0..rows).map(|r| w[r * frames + f]).collect();
            let m = column.iter().sum::<f32>() / rows as f32;
            let var = column.iter().map(|x| (x - m) * (x - m)).sum::<f32>() / rows as f32;
            for r in 0..rows {
                w[r * frames + f] = (w[r * frames + f] - m) / var.sqrt();
            }
        }
        // 3b. a median filter along each text row, 3c. the average over heads
        for (i, r) in text.clone().enumerate() {
            let smooth = median_filter(&w[r * frames..(r + 1) * frames], MEDIAN_WIDTH);
            for (f, v) in smooth.into_iter().enumerate() {
                mean[i * frames + f] += v / heads.len() as f32;
            }
        }
    }
    mean
}
// ANCHOR_END: alignment_matrix

/// Each value replaced by the median of the `width` values around it, the row reflected at its
/// ends (`x[-1] = x[1]`). A row no longer than half the width is returned as it is.
pub fn median_filter(row: &[f32], width: usize) -> Vec<f32> {
    let (n, half) = (row.len() as isize, (width / 2) as isize);
    if n <= half {
        return row.to_vec();
    }
    (0..n)
        .map(|j| {
            let mut window: Vec<f32> = (-half..=half)
                .map(|k| {
                    let i = (j + k).abs();
                    row[(if i >= n { 2 * n - i - 2 } else { i }) as usize]
                })
                .collect();
            window.sort_by(f32::total_cmp);
            window[half as usize]
        })
        .collect()
}

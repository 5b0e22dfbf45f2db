//! Which cross-attention heads follow the speech: every head's map while the transcript of one
//! clip is read again whole, measured against the path the alignment heads give, and committed
//! (`measurements/heads.json`) so that the page's figures and numbers come from one reading.
//! `cargo run --release -p ch13-real-whisper --example heads -- --save` writes it again; an ignored
//! test checks that the model still gives it.

use std::path::PathBuf;

use dfdx::prelude::*;
use serde::{Deserialize, Serialize};

use crate::clips::Clip;
use crate::config::{DECODER_LAYERS, HEADS};
use crate::timing::{alignment_matrix, dtw, text_rows};
use crate::transcribe::Transcriber;

/// How many positions either side of the path count as on it: 2 positions, 40 ms.
pub const NEAR: usize = 2;

/// One head's weights over the speech: `weights[row * positions + position]`, each row summing to
/// one (the weights cut to the positions that heard speech, renormalised).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadMap {
    /// both counted from 0
    pub layer: usize,
    pub head: usize,
    /// whether `config.json` names it an alignment head
    pub alignment: bool,
    pub weights: Vec<f32>,
}

/// Every head of the decoder on one clip.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadsReading {
    /// the clip's short name, such as `0880`
    pub clip: String,
    /// the rows: each token of the transcript as text, then `<|endoftext|>`
    pub pieces: Vec<String>,
    /// positions (20 ms each) that heard speech
    pub positions: usize,
    /// `layer * 6 + head`
    pub heads: Vec<HeadMap>,
    /// the alignment matrix ([`alignment_matrix`]), `(rows, positions)`
    pub matrix: Vec<f32>,
    /// the path through it ([`dtw`]): `(row, position)`
    pub path: Vec<(usize, usize)>,
    /// each word with its start and end in seconds
    pub words: Vec<(String, f64, f64)>,
}

/// Rounds to 4 decimals: the committed file stays small, and a figure cannot show more.
fn rounded(values: &[f32]) -> Vec<f32> {
    values.iter().map(|v| (v * 1e4).round() / 1e4).collect()
}

/// Reads every head on `clip`.
pub fn read<Dev: Device<f32>>(t: &Transcriber<Dev>, clip: &Clip) -> Result<HeadsReading, String> {
    let transcript = t.transcribe(&clip.samples())?;
    let (all, rows, stride) = t.cross_attention(&transcript);
    let positions = transcript.speech_frames / 2;
    let text = text_rows(rows);
    let speech = |w: &[f32]| -> Vec<f32> {
        (text.clone())
            .flat_map(|r| {
                let row = &w[r * stride..r * stride + positions];
                let sum: f32 = row.iter().sum();
                row.iter().map(move |x| x / sum)
            })
            .collect()
    };
    let heads = (0..DECODER_LAYERS * HEADS)
        .map(|i| HeadMap {
            layer: i / HEADS,
            head: i % HEADS,
            alignment: t.config.alignment_heads.contains(&(i / HEADS, i % HEADS)),
            weights: rounded(&speech(&all[i])),
        })
        .collect();
    let (aligned, _, _) = t.alignment_weights(&transcript);
    let matrix = alignment_matrix(&aligned, rows, stride, positions, text.clone());
    let path = dtw(&matrix, text.len(), positions);
    let s = t.tokenizer.specials;
    let ids: Vec<u32> = transcript.tokens.iter().copied().chain([s.end]).collect();
    let words = (t.words(&transcript).into_iter()).map(|w| (w.text, w.start, w.end)).collect();
    Ok(HeadsReading {
        clip: clip.name().into(),
        pieces: t.tokenizer.bpe.pieces(&ids),
        positions,
        heads,
        matrix: rounded(&matrix),
        path,
        words,
    })
}

impl HeadsReading {
    /// The rows of the maps.
    pub fn rows(&self) -> usize {
        self.pieces.len()
    }

    /// The share of `head`'s weight within [`NEAR`] positions of the path, averaged over the rows:
    /// near 1 for a head that looks where the words are being said, and
    /// [`even_spread_near_path`](Self::even_spread_near_path) for one that looks everywhere alike.
    pub fn near_path(&self, head: &HeadMap) -> f32 {
        self.share_near_path(&head.weights)
    }

    /// What [`near_path`](Self::near_path) gives a map that spreads every row evenly over the
    /// positions: the chance level. Not `(2 NEAR + 1) / positions`: where the path stays on a
    /// row for several positions, the window around it is wider.
    pub fn even_spread_near_path(&self) -> f32 {
        let even = vec![1.0 / self.positions as f32; self.rows() * self.positions];
        self.share_near_path(&even)
    }

    fn share_near_path(&self, weights: &[f32]) -> f32 {
        let rows = self.rows();
        let mut total = 0.0;
        for r in 0..rows {
            let on: Vec<usize> = self.path.iter().filter(|p| p.0 == r).map(|p| p.1).collect();
            let (lo, hi) = match (on.iter().min(), on.iter().max()) {
                (Some(&lo), Some(&hi)) => {
                    (lo.saturating_sub(NEAR), (hi + NEAR).min(self.positions - 1))
                }
                _ => continue,
            };
            total += weights[r * self.positions + lo..=r * self.positions + hi].iter().sum::<f32>();
        }
        total / rows as f32
    }

    /// The file the reading is committed in.
    pub fn path_of_file() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("measurements/heads.json")
    }

    /// The committed reading.
    pub fn committed() -> HeadsReading {
        serde_json::from_str(include_str!("../measurements/heads.json"))
            .expect("measurements/heads.json")
    }
}

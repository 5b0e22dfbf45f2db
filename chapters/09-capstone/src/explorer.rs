//! The attention explorer of the book: a fixed set of sequences, the committed model's answers and
//! its cross-attention maps, exported as the small JSON file `book/src/explorer/reversal.json` the
//! page inlines (the `explorer_data` example writes it; `cargo xtask explorer` runs that).

use dfdx::prelude::*;
use serde::{Deserialize, Serialize};

use crate::attention::cross_attention;
use crate::config::TrainConfig;
use crate::data::TRAIN_LENGTHS;
use crate::data::{held_out_set, longer_set};
use crate::presets::Reverser;
use crate::trained::load_report;

/// Sequences shown per length.
pub const PER_LENGTH: usize = 4;
/// The held-out lengths shown (lengths 1 and 2 have too little to look at).
pub const SHOWN_LENGTHS: std::ops::RangeInclusive<usize> = 3..=10;
/// The longer lengths shown, never seen in training, and how many of each.
pub const LONGER_SHOWN: [(usize, usize); 2] = [(11, 2), (12, 2)];
/// Decimals kept of every attention weight.
pub const DECIMALS: i32 = 3;

/// Everything the page shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Explorer {
    /// decoder layers (the first index of every example's `maps`)
    pub layers: usize,
    /// heads per layer (the second index)
    pub heads: usize,
    /// the lengths the model was trained on, `[shortest, longest]`
    pub trained_lengths: [usize; 2],
    pub examples: Vec<Example>,
}

/// One sequence, what the model answered and where it looked while answering.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Example {
    /// the digits read
    pub input: Vec<u8>,
    /// the digits written (greedy decoding, up to its `EOS`)
    pub answer: Vec<u8>,
    /// whether `answer` is `input` reversed
    pub correct: bool,
    /// whether the model wrote `EOS` (if not, it ran out of steps and the last row is the step
    /// after its last digit)
    pub stopped: bool,
    /// `maps[layer][head][output][input]`, rounded to [`DECIMALS`]: rows are the answer's digits,
    /// then `EOS`; columns are the input digits
    pub maps: Vec<Vec<Vec<Vec<f32>>>>,
}

/// The sequences shown, in order: the first [`PER_LENGTH`] of each of [`SHOWN_LENGTHS`] in the
/// held-out set of `config`, then the first of each longer length in the same 400 longer
/// sequences the training report scores ([`longer_set`]).
pub fn sequences(config: &TrainConfig) -> Vec<Vec<u8>> {
    let test = held_out_set(config);
    let longer = longer_set(config);
    let first = |set: &[Vec<u8>], len: usize, n: usize| -> Vec<Vec<u8>> {
        set.iter().filter(|s| s.len() == len).take(n).cloned().collect()
    };
    let mut out: Vec<Vec<u8>> =
        SHOWN_LENGTHS.flat_map(|len| first(&test, len, PER_LENGTH)).collect();
    out.extend(LONGER_SHOWN.iter().flat_map(|&(len, n)| first(&longer, len, n)));
    out
}

/// One weight rounded to [`DECIMALS`].
fn round(w: f32) -> f32 {
    let scale = 10f32.powi(DECIMALS);
    (w * scale).round() / scale
}

/// The explorer's data for the committed model (`model`, with the configuration of the committed
/// report): the [`sequences`], each with its answer and cross-attention maps.
pub fn export<Dev: Device<f32>>(model: &Reverser<Dev>, dev: &Dev) -> Explorer {
    let config = load_report().config;
    let examples: Vec<Example> = sequences(&config)
        .iter()
        .map(|digits| {
            let read = cross_attention(model, dev, digits);
            let correct = digits.iter().rev().eq(read.answer.iter());
            // greedy writes at most one token more than the input: `EOS` if it stopped
            let stopped = read.answer.len() <= digits.len();
            let maps = read
                .maps
                .iter()
                .map(|layer| {
                    layer
                        .iter()
                        .map(|head| {
                            head.iter().map(|row| row.iter().map(|&w| round(w)).collect()).collect()
                        })
                        .collect()
                })
                .collect();
            Example { input: read.input, answer: read.answer, correct, stopped, maps }
        })
        .collect();
    let first = &examples[0].maps;
    Explorer {
        layers: first.len(),
        heads: first[0].len(),
        trained_lengths: [*TRAIN_LENGTHS.start(), *TRAIN_LENGTHS.end()],
        examples,
    }
}

/// The file's text: compact JSON with one example per line (so a changed example is a changed
/// line), ending with a newline.
pub fn to_json(explorer: &Explorer) -> String {
    let header = serde_json::json!({
        "layers": explorer.layers,
        "heads": explorer.heads,
        "trained_lengths": explorer.trained_lengths,
    })
    .to_string();
    let examples: Vec<String> = explorer
        .examples
        .iter()
        .map(|e| serde_json::to_string(e).expect("examples serialise"))
        .collect();
    // `{"heads":..,"layers":..,"trained_lengths":[..]}` opened up to take the examples
    let head = header.strip_suffix('}').expect("an object");
    format!("{head},\"examples\":[\n{}\n]}}\n", examples.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_keeps_three_decimals() {
        assert_eq!(round(0.123_456), 0.123);
        assert_eq!(round(0.999_9), 1.0);
        assert_eq!(round(0.000_4), 0.0);
    }

    #[test]
    fn json_round_trips() {
        let e = Explorer {
            layers: 1,
            heads: 1,
            trained_lengths: [1, 10],
            examples: vec![Example {
                input: vec![1, 2],
                answer: vec![2, 1],
                correct: true,
                stopped: true,
                maps: vec![vec![vec![vec![0.1, 0.9], vec![0.8, 0.2], vec![0.5, 0.5]]]],
            }],
        };
        let text = to_json(&e);
        assert!(text.ends_with("]}\n") && text.lines().count() == 3, "{text}");
        assert_eq!(serde_json::from_str::<Explorer>(&text).unwrap(), e);
    }
}

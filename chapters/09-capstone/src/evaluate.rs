//! The trained model scored from its weights: exact-sequence accuracy per length on the test set
//! (1-10 digits, as in training) and on longer sequences (11-14 digits, never seen).

use dfdx::prelude::*;

use crate::config::TrainConfig;
use crate::data::{longer_set, test_set, LONGER_LENGTHS, UNSEEN_FROM_LENGTH};
use crate::decode::count_reversed;
use crate::presets::Reverser;

/// One length: how many sequences of it were scored, and how many were reversed exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LengthScore {
    pub length: usize,
    pub sequences: usize,
    pub right: usize,
}

/// Scores every length from 1 to 14: the test set of `config` for 1-10 digits, its longer set for
/// 11-14.
pub fn by_length<Dev: Device<f32>>(
    model: &Reverser<Dev>,
    dev: &Dev,
    config: &TrainConfig,
) -> Vec<LengthScore> {
    let (test, longer) = (test_set(config), longer_set(config));
    (1..=*LONGER_LENGTHS.end())
        .map(|length| {
            let of_len: Vec<Vec<u8>> =
                test.iter().chain(&longer).filter(|s| s.len() == length).cloned().collect();
            let right = count_reversed(model, dev, &of_len);
            LengthScore { length, sequences: of_len.len(), right }
        })
        .collect()
}

/// `(right, sequences)` summed over the lengths in `lengths`.
pub fn total(scores: &[LengthScore], lengths: std::ops::RangeInclusive<usize>) -> (usize, usize) {
    scores
        .iter()
        .filter(|s| lengths.contains(&s.length))
        .fold((0, 0), |(r, n), s| (r + s.right, n + s.sequences))
}

/// The test set's sequences that training could also draw (fewer than 4 digits), and the ones
/// it never saw (4-10): `((right, sequences), (right, sequences))`.
pub fn seen_and_unseen(scores: &[LengthScore]) -> ((usize, usize), (usize, usize)) {
    (total(scores, 1..=UNSEEN_FROM_LENGTH - 1), total(scores, UNSEEN_FROM_LENGTH..=10))
}

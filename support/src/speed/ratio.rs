//! [`Ratio`]: one program's speed over another's, three ways.

use crate::rounds::{paired_ratios, Summary};

/// One program's speed over another's, from their rates round by round: by their best rounds,
/// by their medians, and round by round (the programs alternate, so each pair of rounds ran
/// under the same conditions; their spread says how far one ratio can be trusted).
#[derive(Clone, Debug, PartialEq)]
pub struct Ratio {
    /// our best round over theirs
    pub best: f64,
    /// our median round over theirs
    pub median: f64,
    /// our rate over theirs in the same round, round by round
    pub rounds: Vec<f64>,
}

impl Ratio {
    /// `ours` over `theirs`; `None` unless both have as many rounds, each a positive rate.
    pub fn of(ours: &[f64], theirs: &[f64]) -> Option<Ratio> {
        let (a, b) = (Summary::of(ours)?, Summary::of(theirs)?);
        let rounds = paired_ratios(ours, theirs)?;
        Some(Ratio { best: a.best / b.best, median: a.median / b.median, rounds })
    }

    /// The round-by-round ratios' lowest (`slowest`), median and highest (`best`).
    pub fn spread(&self) -> Summary {
        Summary::of(&self.rounds).expect("a ratio of positive rates is positive")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_best_by_median_and_round_by_round() {
        // ours 10, 12, 9 against 8, 6, 5: bests 12 and 8, medians 10 and 6
        let r = Ratio::of(&[10.0, 12.0, 9.0], &[8.0, 6.0, 5.0]).unwrap();
        assert_eq!((r.best, r.median), (1.5, 10.0 / 6.0));
        assert_eq!(r.rounds, [1.25, 2.0, 1.8]);
        let spread = r.spread();
        assert_eq!((spread.slowest, spread.median, spread.best), (1.25, 1.8, 2.0));
        // equal bests and medians, and yet a threefold difference in each round
        let r = Ratio::of(&[3.0, 1.0], &[1.0, 3.0]).unwrap();
        assert_eq!(
            (r.best, r.median, r.rounds.as_slice()),
            (1.0, 1.0, [3.0, 1.0 / 3.0].as_slice())
        );
    }

    #[test]
    fn rounds_that_do_not_pair_have_no_ratio() {
        assert_eq!(Ratio::of(&[1.0, 2.0], &[1.0]), None);
        assert_eq!(Ratio::of(&[1.0, 0.0], &[1.0, 2.0]), None);
        assert_eq!(Ratio::of(&[], &[]), None);
    }
}

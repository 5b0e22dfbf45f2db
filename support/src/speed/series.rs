//! [`Series`]: one measure of a program's rounds, as its file records it, and its check.

use crate::rounds::Summary;

/// What a round records: a rate (higher is faster: tokens or sentences per second) or the
/// seconds a round took (lower is faster).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Rate,
    Seconds,
}

/// One measure of a program's rounds: every round, in the order they ran, and the best of them
/// as the file writes it beside them (unrounded, where the rounds are rounded to 3 or 4 decimals).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Series<'a> {
    pub rounds: &'a [f64],
    /// the fastest round: the highest rate, or the fewest seconds
    pub best: f64,
    pub unit: Unit,
}

impl<'a> Series<'a> {
    /// Rounds of a rate, `best` the highest.
    pub fn rates(rounds: &'a [f64], best: f64) -> Self {
        Series { rounds, best, unit: Unit::Rate }
    }

    /// Rounds of seconds, `best` the fewest.
    pub fn seconds(rounds: &'a [f64], best: f64) -> Self {
        Series { rounds, best, unit: Unit::Seconds }
    }

    /// The fastest round.
    pub fn fastest(&self) -> f64 {
        match self.unit {
            Unit::Rate => self.rounds.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            Unit::Seconds => self.rounds.iter().copied().fold(f64::INFINITY, f64::min),
        }
    }

    /// Whether program `name` has `rounds` rounds, each a positive number, and its best is its
    /// fastest round to within 0.001 (the scripts keep 3 or 4 decimals of each round).
    pub fn check(&self, name: &str, rounds: usize) -> Result<(), String> {
        if self.rounds.len() != rounds {
            return Err(format!("{name} does not have {rounds} rounds"));
        }
        if Summary::of(self.rounds).is_none() {
            let what = match self.unit {
                Unit::Rate => "rate",
                Unit::Seconds => "time",
            };
            return Err(format!("{name}: a round is not a positive {what}"));
        }
        let fastest = self.fastest();
        if (fastest - self.best).abs() > 1e-3 {
            return Err(format!("{name}: best {} is not its fastest round {fastest}", self.best));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fastest_round_of_a_rate_is_the_highest_and_of_a_time_the_lowest() {
        let rounds = [2.0939, 1.9078, 2.0453];
        assert_eq!(Series::seconds(&rounds, 1.90782066).fastest(), 1.9078);
        assert_eq!(Series::rates(&rounds, 2.0939).fastest(), 2.0939);
        assert_eq!(Series::seconds(&rounds, 1.90782066).check("fast path", 3), Ok(()));
        assert_eq!(Series::rates(&[149.164, 150.144], 150.1443).check("fast", 2), Ok(()));
    }

    #[test]
    fn a_series_is_refused_with_the_reason() {
        let rounds = [149.164, 150.144, 149.932];
        let refused = |s: Series<'_>, n| s.check("fast path", n).unwrap_err();
        assert_eq!(refused(Series::rates(&rounds, 150.144), 4), "fast path does not have 4 rounds");
        assert_eq!(
            refused(Series::rates(&[1.0, 0.0, 2.0], 2.0), 3),
            "fast path: a round is not a positive rate"
        );
        assert_eq!(
            refused(Series::seconds(&[1.0, f64::NAN, 2.0], 1.0), 3),
            "fast path: a round is not a positive time"
        );
        assert_eq!(
            refused(Series::rates(&rounds, 150.2), 3),
            "fast path: best 150.2 is not its fastest round 150.144"
        );
        // the highest rate, not the lowest; the fewest seconds, not the most
        assert!(refused(Series::rates(&rounds, 149.164), 3).contains("fastest round 150.144"));
        assert!(refused(Series::seconds(&rounds, 150.144), 3).contains("fastest round 149.164"));
    }
}

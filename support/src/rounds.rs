//! The rounds of a timed comparison, summarised the same way everywhere: the best, the median and
//! the spread, so that a page never rests a speed claim on one lucky round.

/// Rates (higher is faster: tokens or sentences per second) of the rounds of one program.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// the fastest round
    pub best: f64,
    /// the middle round (the mean of the two middle ones for an even count)
    pub median: f64,
    /// the slowest round
    pub slowest: f64,
    pub rounds: usize,
}

impl Summary {
    /// The summary of `rates`, or `None` for no rounds or a rate that is not a positive number.
    pub fn of(rates: &[f64]) -> Option<Summary> {
        if rates.is_empty() || rates.iter().any(|r| !(r.is_finite() && *r > 0.0)) {
            return None;
        }
        let mut sorted = rates.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median =
            if n % 2 == 1 { sorted[n / 2] } else { (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0 };
        Some(Summary { best: sorted[n - 1], median, slowest: sorted[0], rounds: n })
    }

    /// The distance from the slowest to the fastest round, as a share of the median.
    pub fn spread(&self) -> f64 {
        (self.best - self.slowest) / self.median
    }
}

/// Round by round, `ours[i] / theirs[i]`: the ratio of rounds run side by side (alternating),
/// whose spread says how far a single ratio can be trusted. `None` unless both have the same
/// number of positive rates.
pub fn paired_ratios(ours: &[f64], theirs: &[f64]) -> Option<Vec<f64>> {
    (ours.len() == theirs.len() && Summary::of(ours).is_some() && Summary::of(theirs).is_some())
        .then(|| ours.iter().zip(theirs).map(|(a, b)| a / b).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_median_slowest_and_spread() {
        let s = Summary::of(&[149.164, 150.144, 149.932]).unwrap();
        assert_eq!((s.best, s.median, s.slowest, s.rounds), (150.144, 149.932, 149.164, 3));
        assert!((s.spread() - 0.98 / 149.932).abs() < 1e-12);
        let even = Summary::of(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!((even.best, even.median, even.slowest), (4.0, 2.5, 1.0));
    }

    #[test]
    fn no_rounds_or_a_bad_rate_has_no_summary() {
        assert_eq!(Summary::of(&[]), None);
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(Summary::of(&[1.0, bad]), None, "{bad}");
        }
    }

    #[test]
    fn ratios_pair_the_rounds() {
        assert_eq!(paired_ratios(&[2.0, 3.0], &[1.0, 2.0]), Some(vec![2.0, 1.5]));
        assert_eq!(paired_ratios(&[2.0], &[1.0, 2.0]), None);
        assert_eq!(paired_ratios(&[2.0, 0.0], &[1.0, 2.0]), None);
    }
}

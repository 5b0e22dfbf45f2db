//! The table rows and sentences that chapters 12 and 13 write alike from their runs: programs
//! against one reference, by best, by median and round by round, and the chapter's goal of at
//! least the reference's speed.

use super::header::Header;
use super::ratio::Ratio;
use crate::rounds::Summary;

/// `"transformers'"`, `"llama.cpp's"`.
fn possessive(name: &str) -> String {
    match name.ends_with('s') {
        true => format!("{name}'"),
        false => format!("{name}'s"),
    }
}

/// A table of programs against `reference`: its head, then a row per program, each with its
/// best, median and slowest round in `unit` and its [`Ratio`] to the reference by best and by
/// median.
pub fn reference_table<'a>(
    unit: &str,
    reference: &str,
    rows: impl IntoIterator<Item = (&'a str, Summary, Ratio)>,
) -> String {
    let theirs = possessive(reference);
    let mut out = format!(
        "| program | {unit}, best | median | slowest | best vs {theirs} best | median vs median \
         |\n|---|---:|---:|---:|---:|---:|\n"
    );
    for (what, s, ratio) in rows {
        out += &format!(
            "| {what} | {:.1} | {:.1} | {:.1} | {:.2}× | {:.2}× |\n",
            s.best, s.median, s.slowest, ratio.best, ratio.median
        );
    }
    out
}

/// `"Round by round, the fast path ran at 1.14× to 1.20× sentence-transformers' speed in the same
/// round."`
pub fn round_by_round(ours: &str, ratio: &Ratio, reference: &str) -> String {
    let spread = ratio.spread();
    format!(
        "Round by round, {ours} ran at {:.2}× to {:.2}× {} speed in the same round.",
        spread.slowest,
        spread.best,
        possessive(reference)
    )
}

/// Ratios from several machines as one figure, `"1.14×"`, or, where they differ at two
/// decimals, a range: `"1.03× to 1.14×"`.
///
/// # Panics
/// With no ratio, or one that is not positive.
pub fn range(ratios: impl IntoIterator<Item = f64>) -> String {
    let values: Vec<f64> = ratios.into_iter().collect();
    let s = Summary::of(&values).expect("positive ratios");
    if values.len() == 1 || format!("{:.2}", s.slowest) == format!("{:.2}", s.best) {
        format!("{:.2}×", s.best)
    } else {
        format!("{:.2}× to {:.2}×", s.slowest, s.best)
    }
}

/// `"On the one machine measured"`, `"On the 2 machines measured"`.
pub fn on_machines(runs: usize) -> String {
    match runs {
        1 => "On the one machine measured".to_string(),
        n => format!("On the {n} machines measured"),
    }
}

/// Whether a chapter's goal, its program at least as fast as the reference (1.0×), holds on
/// every machine: in every round, by the medians only (the slowest pair of rounds named), or
/// not (the machines whose median misses it named by their CPU).
pub fn goal(runs: &[(&Header, Ratio)]) -> String {
    let rounds = runs.iter().flat_map(|(_, r)| r.rounds.iter().copied());
    let lowest = rounds.fold(f64::INFINITY, f64::min);
    if lowest >= 1.0 {
        "The goal, at least 1.0×, is met in every round.".to_string()
    } else if runs.iter().all(|(_, r)| r.median >= 1.0) {
        format!(
            "The goal, at least 1.0×, is met by the medians, though not in every round (the \
             slowest pair of rounds gave {lowest:.2}×)."
        )
    } else {
        let short: Vec<&str> = (runs.iter())
            .filter(|(_, r)| r.median < 1.0)
            .map(|(h, _)| h.machine.split(',').next().unwrap_or(""))
            .collect();
        format!("The goal, at least 1.0×, is not met by the median on {}.", short.join(" and "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratio(ours: &[f64], theirs: &[f64]) -> Ratio {
        Ratio::of(ours, theirs).unwrap()
    }

    #[test]
    fn a_table_against_a_reference() {
        let ours = [10.0, 12.0, 9.0];
        let rows = [
            ("this chapter", Summary::of(&ours).unwrap(), ratio(&ours, &[8.0, 6.0, 5.0])),
            (
                "PyTorch",
                Summary::of(&[8.0, 6.0, 5.0]).unwrap(),
                ratio(&[8.0, 6.0, 5.0], &[8.0, 6.0, 5.0]),
            ),
        ];
        assert_eq!(
            reference_table("sentences/s", "transformers", rows),
            "| program | sentences/s, best | median | slowest | best vs transformers' best | \
             median vs median |\n|---|---:|---:|---:|---:|---:|\n\
             | this chapter | 12.0 | 10.0 | 9.0 | 1.50× | 1.67× |\n\
             | PyTorch | 8.0 | 6.0 | 5.0 | 1.00× | 1.00× |\n"
        );
        assert_eq!(
            round_by_round("the fast path", &ratio(&ours, &[8.0, 6.0, 5.0]), "llama.cpp"),
            "Round by round, the fast path ran at 1.25× to 2.00× llama.cpp's speed in the same \
             round."
        );
    }

    #[test]
    fn ratios_across_machines() {
        assert_eq!(range([1.1449]), "1.14×");
        assert_eq!(range([1.141, 1.144]), "1.14×");
        assert_eq!(range([1.144, 1.031]), "1.03× to 1.14×");
        assert_eq!(on_machines(1), "On the one machine measured");
        assert_eq!(on_machines(3), "On the 3 machines measured");
    }

    #[test]
    fn the_goal_in_every_round_by_the_medians_or_not() {
        let xeon = Header {
            machine: "Intel(R) Xeon(R) Processor, 2 cores (avx2, fma, avx512f)".into(),
            isa: "avx512".into(),
            threads: 2,
            rounds: 3,
        };
        let amd = Header {
            machine: "AMD EPYC 9B14, 2 cores (avx2, fma, avx512f)".into(),
            ..xeon.clone()
        };
        let ahead = ratio(&[10.0, 12.0, 9.0], &[8.0, 6.0, 5.0]);
        assert_eq!(
            goal(&[(&xeon, ahead.clone())]),
            "The goal, at least 1.0×, is met in every round."
        );
        // medians 10 and 9.5, but the third round 9 against 9.5: 0.947
        let close = ratio(&[10.0, 12.0, 9.0], &[9.0, 9.5, 9.5]);
        assert_eq!(close.median, 10.0 / 9.5);
        assert_eq!(
            goal(&[(&xeon, ahead.clone()), (&amd, close)]),
            "The goal, at least 1.0×, is met by the medians, though not in every round (the \
             slowest pair of rounds gave 0.95×)."
        );
        let behind = ratio(&[10.0, 12.0, 9.0], &[11.0, 11.0, 11.0]);
        assert_eq!(
            goal(&[(&xeon, behind.clone()), (&amd, behind), (&xeon, ahead)]),
            "The goal, at least 1.0×, is not met by the median on Intel(R) Xeon(R) Processor and \
             AMD EPYC 9B14."
        );
    }
}

//! A whole run, as a chapter reads one: a tiny file of two programs, three rounds each, whose
//! checks, ratios and sentences can be followed by hand.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::*;
use crate::rounds::Summary;

/// A program as chapter 12's file records it.
#[derive(Clone, Debug, Deserialize)]
struct Program {
    program: String,
    sentences_per_s: f64,
    rounds: Vec<f64>,
    #[serde(default)]
    versions: BTreeMap<String, String>,
}

impl Timed for Program {
    fn timing(&self) -> Timing<'_> {
        let series = vec![Series::rates(&self.rounds, self.sentences_per_s)];
        Timing { name: &self.program, versions: &self.versions, series }
    }
}

#[derive(Clone, Debug, Deserialize)]
struct Run {
    #[serde(flatten)]
    header: Header,
    sentences: usize,
    programs: Vec<Program>,
}

impl Run {
    fn check(&self) -> Result<(), String> {
        self.header.check(2, MIN_ROUNDS)?;
        check_programs(&self.programs, ["ours", "reference"], self.header.rounds)?;
        check_versions(program(&self.programs, "reference"))
    }

    fn against_reference(&self) -> Ratio {
        let rounds = |name| &program(&self.programs, name).rounds;
        Ratio::of(rounds("ours"), rounds("reference")).expect("checked")
    }
}

const FILE: &str = r#"{
 "machine": "AMD EPYC 9B14, 2 cores (avx2, fma, avx512f)",
 "isa": "avx512",
 "threads": 2,
 "sentences": 256,
 "rounds": 3,
 "programs": [
  {"program": "ours", "sentences_per_s": 12.0004, "rounds": [10.0, 12.0, 9.0]},
  {"program": "reference", "sentences_per_s": 8.0, "rounds": [8.0, 6.0, 5.0],
   "versions": {"sentence_transformers": "6.2.0", "torch": "2.15.0"}}
 ]
}"#;

fn run() -> Run {
    serde_json::from_str(FILE).unwrap()
}

#[test]
fn a_tiny_run_read_checked_and_compared() {
    let run = run();
    assert_eq!((run.header.rounds, run.sentences), (3, 256));
    assert_eq!(run.check(), Ok(()));
    // ours 10, 12, 9 against 8, 6, 5: bests 12 / 8, medians 10 / 6, pairs 10 / 8, 12 / 6, 9 / 5
    let ratio = run.against_reference();
    assert_eq!((ratio.best, ratio.median), (1.5, 10.0 / 6.0));
    assert_eq!(ratio.rounds, [1.25, 2.0, 1.8]);
    let ours = Summary::of(&program(&run.programs, "ours").rounds).unwrap();
    assert_eq!((ours.best, ours.median, ours.slowest), (12.0, 10.0, 9.0));
    assert_eq!(versions(&run.programs), "sentence-transformers 6.2.0, torch 2.15.0");
    let table = text::reference_table("sentences/s", "reference", [("ours", ours, ratio.clone())]);
    assert!(table.ends_with("| ours | 12.0 | 10.0 | 9.0 | 1.50× | 1.67× |\n"), "{table}");
    assert_eq!(
        text::goal(&[(&run.header, ratio)]),
        "The goal, at least 1.0×, is met in every round."
    );
}

#[test]
fn a_run_is_refused_with_its_reason() {
    let refused = |change: fn(&mut Run)| {
        let mut run = run();
        change(&mut run);
        run.check().unwrap_err()
    };
    assert_eq!(refused(|r| r.header.threads = 4), "4 threads, not 2");
    assert_eq!(
        refused(|r| {
            r.header.rounds = 2;
            r.programs.iter_mut().for_each(|p| p.rounds.truncate(2));
        }),
        "2 rounds: a median needs at least 3"
    );
    assert_eq!(refused(|r| r.programs[1].program = "other".into()), "reference is missing");
    assert_eq!(refused(|r| r.programs[0].rounds.push(11.0)), "ours does not have 3 rounds");
    assert_eq!(
        refused(|r| r.programs[1].rounds[2] = 0.0),
        "reference: a round is not a positive rate"
    );
    assert_eq!(
        refused(|r| r.programs[0].sentences_per_s = 12.5),
        "ours: best 12.5 is not its fastest round 12"
    );
    assert_eq!(refused(|r| r.programs[1].versions.clear()), "reference: no versions recorded");
}

#[test]
#[should_panic(expected = "no llama.cpp")]
fn a_program_the_run_lacks_panics_with_its_name() {
    program(&run().programs, "llama.cpp");
}

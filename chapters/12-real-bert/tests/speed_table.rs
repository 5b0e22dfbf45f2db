//! The committed speed comparison: every run checked, the page's table generated from it, and
//! the figures the page states.

use ch12_real_bert::speed_table::{self, SpeedRun, BLOCKS, FAST, REFERENCE};
use support::speed;

fn xeon() -> SpeedRun {
    speed_table::committed()
        .into_iter()
        .find(|(name, _)| name == "intel-xeon-processor")
        .map(|(_, run)| run)
        .expect("measurements/speed/intel-xeon-processor.json")
}

/// An earlier run of 3 rounds on an Intel Xeon, kept for the checks that change its rounds.
fn three_rounds() -> SpeedRun {
    serde_json::from_str(include_str!("fixtures/speed-run-3-rounds.json")).expect("the old run")
}

#[test]
fn every_committed_run_is_complete() {
    let runs = speed_table::committed();
    assert!(!runs.is_empty());
    for (name, run) in &runs {
        assert_eq!(run.check(), Ok(()), "measurements/speed/{name}.json");
    }
}

#[test]
fn the_speed_table_is_current() {
    for (path, expected) in speed_table::generated_files() {
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            committed,
            expected,
            "{} is stale: cargo run --release -p ch12-real-bert --example embed_speed_table",
            path.display()
        );
    }
}

#[test]
fn worked_example_speed_against_sentence_transformers() {
    let run = xeon();
    let machine = &run.header.machine;
    assert!(machine.starts_with("Intel(R) Xeon(R) Processor, 2 cores"), "{machine}");
    assert_eq!(
        speed::versions(&run.programs),
        "dfdx 0.13.0, python 3.11.7, rustc 1.95.0, sentence-transformers 6.2.0, torch 2.15.0+cu132, transformers 5.24.0"
    );
    assert_eq!(run.header.rounds, 10);
    let rates = |name: &str| {
        let s = run.program(name).summary();
        format!("{:.1} {:.1} {:.1}", s.best, s.median, s.slowest)
    };
    assert_eq!(rates(FAST), "158.7 147.7 142.7");
    assert_eq!(rates(BLOCKS), "25.1 24.7 23.8");
    assert_eq!(rates(REFERENCE), "134.9 126.9 115.5");
    let ratios =
        |name: &str| format!("{:.2} {:.2}", run.against(name).best, run.against(name).median);
    assert_eq!(ratios(FAST), "1.18 1.16");
    assert_eq!(ratios(BLOCKS), "0.19 0.19");
    let rounds: Vec<String> = run.against(FAST).rounds.iter().map(|r| format!("{r:.2}")).collect();
    assert_eq!(
        rounds,
        ["1.20", "1.18", "1.14", "1.15", "1.16", "1.12", "1.25", "1.13", "1.20", "1.24"]
    );
    // the page's sentence, from this run alone
    let alone = speed_table::summary(&[("intel-xeon-processor".into(), run)]);
    assert_eq!(
        alone,
        "On the one machine measured, the fast path's best round is 1.18× sentence-transformers' \
         best, and its median round 1.16× sentence-transformers' median. The goal, at least 1.0×, \
         is met in every round. Chapter 5's blocks on dfdx reach 0.19× by the medians.\n"
    );
}

#[test]
fn the_summary_spans_machines_and_says_when_the_goal_is_missed() {
    let mut slower = three_rounds();
    slower.header.machine = "AMD EPYC 9B14, 2 cores (avx2, fma, avx512f)".into();
    let fast = slower.programs.iter_mut().find(|p| p.program == FAST).unwrap();
    fast.rounds = vec![120.0, 135.0, 128.0];
    fast.sentences_per_s = 135.0;
    let runs = [("a".to_string(), three_rounds()), ("b".to_string(), slower.clone())];
    let text = speed_table::summary(&runs);
    assert!(text
        .starts_with("On the 2 machines measured, the fast path's best round is 1.03× to 1.14×"));
    assert!(text.contains("median round 0.99× to 1.16× sentence-transformers' median"), "{text}");
    assert!(text.contains("The goal, at least 1.0×, is not met by the median on AMD EPYC 9B14."));
    // medians above 1 but one pair of rounds below
    let fast = slower.programs.iter_mut().find(|p| p.program == FAST).unwrap();
    fast.rounds = vec![120.0, 135.0, 131.0];
    let text = speed_table::summary(&[("b".to_string(), slower)]);
    assert!(text.contains("is met by the medians, though not in every round (the slowest pair of rounds gave 0.93×)"), "{text}");
}

#[test]
fn a_run_of_too_few_rounds_or_a_bad_round_is_refused() {
    let mut run = three_rounds();
    run.header.rounds = 2;
    run.programs.iter_mut().for_each(|p| p.rounds.truncate(2));
    assert_eq!(run.check(), Err("2 rounds: a median needs at least 3".into()));
    let mut run = three_rounds();
    run.programs[0].rounds[1] = 0.0;
    assert_eq!(run.check(), Err("fast path: a round is not a positive rate".into()));
    let mut run = three_rounds();
    run.programs.iter_mut().for_each(|p| p.versions.clear());
    assert_eq!(run.check(), Err("sentence-transformers: no versions recorded".into()));
}

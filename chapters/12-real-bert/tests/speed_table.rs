//! The committed speed comparison: every run checked, the page's table generated from it, and
//! the figures the page states.

use ch12_real_bert::speed_table::{self, SpeedRun};

fn xeon() -> SpeedRun {
    speed_table::committed()
        .into_iter()
        .find(|(name, _)| name == "intel-xeon-processor")
        .map(|(_, run)| run)
        .expect("measurements/speed/intel-xeon-processor.json")
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
    let path = speed_table::folder().with_extension("md");
    let committed = std::fs::read_to_string(&path).expect("measurements/speed.md");
    assert_eq!(
        committed,
        speed_table::tables(),
        "measurements/speed.md is stale: cargo run --release -p ch12-real-bert --example embed_speed_table"
    );
}

#[test]
fn worked_example_speed_against_sentence_transformers() {
    let run = xeon();
    assert!(run.machine.starts_with("Intel(R) Xeon(R) Processor, 2 cores"), "{}", run.machine);
    let rate = |name: &str| format!("{:.1}", run.program(name).sentences_per_s);
    let ratio = |name: &str| format!("{:.2}", run.ratio(name));
    assert_eq!(rate("fast path"), "150.1");
    assert_eq!(rate("sentence-transformers"), "131.1");
    assert_eq!(ratio("fast path"), "1.14");
    assert_eq!(ratio("chapter 5's blocks (dfdx)"), "0.20");
    assert!(run.ratio("fast path") >= 1.0, "the chapter's goal: at least 1.0x");
}

//! The committed speed comparisons: each run is complete, the page's generated table and summary
//! are current, the Python programs wrote the same tokens as this chapter (faster-whisper in
//! float32 and transformers exactly), and the chapter's goal is read from the file.

use ch13_real_whisper::speed_table::{committed, generated_files, FASTER_WHISPER, REFERENCE};

use crate::real_model::references;

#[test]
fn the_runs_are_complete_and_the_generated_files_current() {
    let runs = committed();
    assert!(!runs.is_empty());
    for (name, run) in &runs {
        run.check().unwrap_or_else(|e| panic!("{name}: {e}"));
        let want: Vec<Vec<u32>> = references().into_iter().map(|r| r.tokens).collect();
        for program in [REFERENCE, FASTER_WHISPER[0]] {
            assert_eq!(run.program(program).tokens, want, "{name}: {program}");
        }
        // int8 weights write other tokens on some clips; it is timed on what it wrote
        assert_eq!(run.program(FASTER_WHISPER[1]).tokens.len(), 5);
    }
    for (path, text) in generated_files() {
        let file = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            file,
            text,
            "{} is not current: cargo run --release -p ch13-real-whisper --example transcribe_speed_table",
            path.display()
        );
    }
}

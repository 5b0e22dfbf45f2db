//! The committed speed comparison: every run checked, the page's table generated from it, and
//! the ratios the page states recomputed from the rounds.

use ch11_real_llm::speed_table::{self, SpeedRun};

fn xeon() -> SpeedRun {
    speed_table::committed()
        .into_iter()
        .find(|(name, _)| name == "intel-xeon-processor")
        .expect("measurements/speed/intel-xeon-processor.json")
        .1
}

#[test]
fn every_run_names_its_machine_and_has_every_round() {
    let runs = speed_table::committed();
    assert!(!runs.is_empty());
    for (name, run) in &runs {
        run.check().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let mut broken = xeon();
    broken.machine = "a laptop".into();
    assert!(broken.check().unwrap_err().contains("machine"));
    let mut broken = xeon();
    broken.programs[0].decode_rounds[0] += 50.0;
    assert!(broken.check().unwrap_err().contains("best"));
    let mut broken = xeon();
    broken.programs.retain(|p| p.program != "llama.cpp");
    assert!(broken.check().unwrap_err().contains("llama.cpp is missing"));
}

#[test]
fn the_speed_table_is_current() {
    let committed = std::fs::read_to_string(speed_table::folder().with_extension("md")).unwrap();
    assert_eq!(
        committed,
        speed_table::tables(),
        "measurements/speed.md is stale: cargo run --release -p ch11-real-llm --example speed_table"
    );
}

#[test]
fn the_pages_ratios() {
    let run = xeon();
    let ratio = |a, b| (run.decode_ratio(a, b) * 100.0).round() / 100.0;
    assert_eq!(ratio("quantized", "transformers"), 2.68);
    assert_eq!(ratio("f32", "transformers"), 0.96);
    assert_eq!(ratio("quantized", "llama.cpp"), 0.73);
    assert_eq!(ratio("llama.cpp", "transformers"), 3.67);
    assert_eq!(ratio("quantized", "chapter 10"), 7.45);
    // the greedy tokens: every program of this chapter, and transformers, agree
    let tokens = &run.program("transformers").tokens;
    for p in ["quantized", "f32", "chapter 10"] {
        assert_eq!(&run.program(p).tokens, tokens, "{p}");
    }
    // llama.cpp (8-bit activations in its products) follows them for 33 tokens
    let same = tokens.iter().zip(&run.program("llama.cpp").tokens).take_while(|(a, b)| a == b);
    assert_eq!(same.count(), 33);
}

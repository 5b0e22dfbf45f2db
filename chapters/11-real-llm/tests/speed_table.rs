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
    let hint = "stale: cargo run --release -p ch11-real-llm --example speed_table";
    let folder = speed_table::folder();
    let committed = std::fs::read_to_string(folder.with_extension("md")).unwrap();
    assert_eq!(committed, speed_table::tables(), "measurements/speed.md is {hint}");
    let profile = std::fs::read_to_string(folder.with_file_name("speed-profile.md")).unwrap();
    assert_eq!(profile, speed_table::profiles(), "measurements/speed-profile.md is {hint}");
}

#[test]
fn the_pages_ratios() {
    let run = xeon();
    let two = |x: f64| (x * 100.0).round() / 100.0;
    let ratio = |a, b| two(run.decode_ratio(a, b));
    assert_eq!(ratio("quantized", "transformers"), 2.94);
    assert_eq!(ratio("f32", "transformers"), 1.04);
    assert_eq!(ratio("quantized", "llama.cpp"), 0.83);
    assert_eq!(ratio("llama.cpp", "quantized"), 1.21);
    assert_eq!(ratio("llama.cpp", "transformers"), 3.56);
    // the rounds' spread
    let spread = |p: &str| {
        let r = &run.program(p).decode_rounds;
        let one = |x: f64| (x * 10.0).round() / 10.0;
        (
            one(r.iter().copied().fold(f64::MAX, f64::min)),
            one(r.iter().copied().fold(0.0, f64::max)),
        )
    };
    assert_eq!((spread("f32"), spread("transformers")), ((24.6, 28.9), (27.0, 27.7)));
    // bytes per token, the bandwidth and what it allows
    let bytes = |p: &str| run.program(p).weight_bytes_per_token.unwrap() as f64;
    assert_eq!((bytes("f32"), bytes("quantized")), (537_919_488.0, 96_436_224.0));
    assert_eq!((bytes("f32") / bytes("quantized") * 10.0).round(), 56.0);
    let bandwidth = run.read_bandwidth_bytes_per_s;
    assert_eq!((bandwidth / 1e8).round(), 212.0);
    assert_eq!((bandwidth / bytes("f32")).round(), 39.0);
    let share =
        |p: &str| (run.program(p).decode_tokens_per_s * bytes("f32") / bandwidth * 100.0).round();
    assert_eq!((share("f32"), share("transformers")), (73.0, 70.0));
    let at_that_share = 0.73 * bandwidth / bytes("quantized");
    assert_eq!((at_that_share / 10.0).round(), 16.0);
    // the profile: the vocabulary projection near the bandwidth, the layers' products far below
    let profile = run.program("quantized").profile.as_ref().unwrap();
    let rate =
        |i: usize| two(profile[i].weight_bytes as f64 / (profile[i].ms_per_token * 1e-3) / 1e9);
    assert_eq!((rate(4) * 10.0).round() / 10.0, 17.5);
    assert_eq!((rate(3) * 10.0).round() / 10.0, 8.5);
    assert_eq!(((rate(2) * 10.0).round() / 10.0, (rate(0) * 10.0).round() / 10.0), (4.0, 4.9));
    assert_eq!(profile[4].weight_bytes, 30_081_024);
    // the greedy tokens: every program of this chapter, and transformers, agree
    let tokens = &run.program("transformers").tokens;
    for p in ["quantized", "f32", "chapter 10"] {
        assert_eq!(&run.program(p).tokens, tokens, "{p}");
    }
    // llama.cpp (8-bit activations in its products) follows them for 33 tokens
    let same = tokens.iter().zip(&run.program("llama.cpp").tokens).take_while(|(a, b)| a == b);
    assert_eq!(same.count(), 33);
}

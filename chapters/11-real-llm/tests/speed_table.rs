//! The committed speed comparisons: every run checked, the page's tables generated from them, and
//! what an old run's file does not record said; the page's own sentences are `speed_page`'s.

use ch11_real_llm::speed_table::WITHOUT_PREFETCH;
use ch11_real_llm::speed_table::{self, LongPrompt, Reader, SpeedRun, DEFAULTS, NO_EXTRA_BUFFERS};

pub fn run(name: &str) -> SpeedRun {
    speed_table::committed()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("measurements/speed/{name}.json"))
        .1
}

pub fn xeon() -> SpeedRun {
    run("intel-xeon-processor")
}

/// A file of the script's first form (an Intel Xeon, 3 rounds, 2026-11-25), kept from before
/// the script recorded llama.cpp's configuration, the readers, the prefetch-off rows, the paired
/// readers, the longer prompts and a profiled pass per round.
pub fn old_run() -> SpeedRun {
    serde_json::from_str(include_str!("fixtures/speed-run-3-rounds-2026-11-25.json"))
        .expect("the old run's file")
}

pub fn amd_epyc() -> SpeedRun {
    run("amd-epyc")
}

/// The page's section "Speed, side by side", up to the next section.
pub fn speed_section() -> String {
    let page = concat!(env!("CARGO_MANIFEST_DIR"), "/../../book/src/11-real-llm.md");
    let page = std::fs::read_to_string(page).expect("the chapter's page");
    let start = page.find("### Speed, side by side").expect("the speed section");
    let rest = &page[start..];
    let end = rest[4..].find("\n## ").map_or(rest.len(), |i| i + 4);
    rest[..end].to_string()
}

pub fn two(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

pub fn one(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

#[test]
fn every_run_names_its_machine_and_has_every_round() {
    let runs = speed_table::committed();
    assert!(!runs.is_empty());
    for (name, run) in &runs {
        run.check().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let mut broken = old_run();
    broken.header.machine = "a laptop".into();
    assert!(broken.check().unwrap_err().contains("machine"));
    let mut broken = old_run();
    broken.programs[0].decode_rounds[0] += 50.0;
    assert!(broken.check().unwrap_err().contains("best"));
    let mut broken = old_run();
    broken.programs[1].decode_rounds[2] = 0.0;
    assert!(broken.check().unwrap_err().contains("positive"));
    let mut broken = old_run();
    broken.programs.retain(|p| p.program != "llama.cpp");
    assert!(broken.check().unwrap_err().contains("llama.cpp is missing"));
    // llama.cpp off its defaults must say why; an unknown configuration is refused
    let mut broken = old_run();
    let llama = broken.programs.iter_mut().find(|p| p.program == "llama.cpp").unwrap();
    llama.configuration = Some(NO_EXTRA_BUFFERS.into());
    assert!(broken.check().unwrap_err().contains("does not say why"));
    let llama = broken.programs.iter_mut().find(|p| p.program == "llama.cpp").unwrap();
    llama.configuration_why = Some("killed by SIGSEGV".into());
    broken.check().unwrap();
    assert!(broken.table().contains("extra buffer types off (its defaults: killed by SIGSEGV)"));
    let llama = broken.programs.iter_mut().find(|p| p.program == "llama.cpp").unwrap();
    llama.configuration = Some("fast".into());
    assert!(broken.check().unwrap_err().contains("unknown"));
    // a prefetch-off row, where present, has every round
    let mut broken = old_run();
    let mut row = broken.program("quantized").clone();
    row.program = WITHOUT_PREFETCH[0].0.into();
    row.decode_rounds.pop();
    broken.programs.push(row);
    assert!(broken.check().unwrap_err().contains("prefetch off does not have 3 rounds"));
}

#[test]
fn the_speed_table_is_current() {
    let hint = "stale: cargo run --release -p ch11-real-llm --example speed_table";
    let page_file = |name| std::fs::read_to_string(speed_table::RUNS.page_file(name)).unwrap();
    let committed = page_file("speed.md");
    assert_eq!(committed, speed_table::tables(), "measurements/speed.md is {hint}");
    let profile = page_file("speed-profile.md");
    assert_eq!(profile, speed_table::profiles(), "measurements/speed-profile.md is {hint}");
}

#[test]
fn an_old_run_says_what_it_did_not_record() {
    // the old file predates llama.cpp's configuration, the bandwidth readers, the prefetch-off
    // rows and the profile of every round: its table says so instead of inventing them
    let run = old_run();
    let table = run.table();
    assert!(table.contains("llama.cpp, the file's blocks (configuration not recorded)"));
    assert!(table.contains("from one reader, a sum of 1 GiB on every thread"));
    assert!(table.contains(
        "Not recorded in this run: llama.cpp's configuration, bandwidth readers other than the \
         sum, the decode path without its software prefetch, more than one profiled pass, a \
         reader paired with each `f32` round, the longer prompts."
    ));
    assert!(!table.contains("prefetch off |"));
    assert!(run.profile_table().contains("the profiled pass that followed each path's fastest"));
}

#[test]
fn a_run_with_every_field_shows_them() {
    // the fields the later script records, on the old file's numbers: the readers, llama.cpp's
    // configuration, the prefetch-off rows and one profiled pass per round
    let mut run = old_run();
    run.bandwidth_readers = Some(vec![
        Reader { reader: "sum".into(), bytes_per_s: 21.2e9 },
        Reader { reader: "STREAM triad".into(), bytes_per_s: 23.0e9 },
    ]);
    assert!(run.check().unwrap_err().contains("not the best of its readers"));
    run.read_bandwidth_bytes_per_s = 23.0e9;
    for name in ["quantized", "f32"] {
        let mut row = run.program(name).clone();
        row.program = format!("{name}, prefetch off");
        row.decode_rounds = vec![60.0, 61.0, 62.0];
        row.decode_tokens_per_s = 62.0;
        run.programs.push(row);
    }
    let rounds = |ours: [f64; 3], theirs: [f64; 3]| {
        [("quantized".to_string(), ours.to_vec()), ("llama.cpp".to_string(), theirs.to_vec())]
            .into_iter()
            .collect()
    };
    let next =
        [("quantized".to_string(), 260), ("llama.cpp".to_string(), 260)].into_iter().collect();
    run.prompts = Some(vec![LongPrompt {
        tokens: 256,
        rounds: rounds([500.0, 510.0, 490.0], [320.0, 330.0, 300.0]),
        next,
        next_equal_every_round: true,
    }]);
    for p in &mut run.programs {
        if p.profile.is_some() {
            p.profile_passes = Some(3);
        }
        if p.program == "llama.cpp" {
            p.configuration = Some(DEFAULTS.into());
        }
    }
    // each f32 round's sum reader: f32's 24.624 × 537.9 MB / 16 GB/s is 83 %, 24.985 → 84 %,
    // 28.889 / 18 GB/s → 86 %; the prefetch-off rows 60, 61, 62 over 40, 41, 42 GB/s: 81, 80, 79 %
    let paired = |run: &mut SpeedRun, name: &str, readers: Vec<f64>| {
        let row = run.programs.iter_mut().find(|p| p.program == name).unwrap();
        row.paired_sum_reader_rounds = Some(readers);
    };
    paired(&mut run, "f32", vec![16e9, 16e9]);
    assert!(run.check().unwrap_err().contains("f32's paired readers are not one positive rate"));
    paired(&mut run, "f32", vec![16e9, 16e9, 18e9]);
    paired(&mut run, "f32, prefetch off", vec![40e9, 41e9, 42e9]);
    run.check().unwrap();
    let table = run.table();
    assert!(table.contains("the `f32` path read 83–86 % of the rate of its moment (median 84 %), and 79–81 % (median 80 %) with its software prefetch off."));
    assert!(table.contains("Memory bandwidth 23.0 GB/s, the best of 2 readers over 1 GiB (sum 21.2, STREAM triad 23.0 GB/s)."));
    assert!(table.contains("| llama.cpp, the file's blocks, its defaults | 285.4 | 98.6 | 98.6 | 97.9–98.6 | 3.56× | 3.58× |"));
    assert!(table.contains("| this chapter, the file's blocks, software prefetch off | 219.8 | 62.0 | 61.0 | 60.0–62.0 | 2.24× | 2.21× | 96.4 MB | 26 % |"));
    assert!(!table.contains("Not recorded"));
    // the longer prompt: 510 / 330 by best, 500 / 320 by median
    assert!(table.contains("| 256 tokens | 510.0 | 500.0 | 490.0–510.0 | 330.0 | 320.0 | 300.0–330.0 | 1.55× | 1.56× | yes |"));
    let mut short = run.clone();
    short.prompts.as_mut().unwrap()[0].rounds.get_mut("llama.cpp").unwrap().pop();
    assert!(short.check().unwrap_err().contains("256-token prompt's llama.cpp does not have 3"));
    assert!(run.profile_table().contains("the fastest of 3 profiled passes of each path"));
    // a profiled pass of each round, or the file is refused
    run.programs[0].profile_passes = Some(2);
    assert!(run.check().unwrap_err().contains("one pass per round"));
}

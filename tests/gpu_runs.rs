//! The README's account of the GPU kit's runs is what the committed runner summaries say
//! (`xtask/gpu-kit/runs/<run>/summary.txt`, and `models-summary.txt` for the published models'
//! tests): every count it quotes is recounted from those files.

use workspace_tools::workspace_root;

fn run_file(run: &str, file: &str) -> String {
    let path = workspace_root().join("xtask/gpu-kit/runs").join(run).join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `(passed, failed, ignored, binaries)` of every summary table in `text`, in order.
fn tables(text: &str) -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    let mut binaries = 0;
    for line in text.lines() {
        let cols: Vec<&str> = line.split_whitespace().collect();
        if cols.len() >= 6 && cols[0].contains('.') && cols[1].parse::<usize>().is_ok() {
            binaries += 1;
        } else if cols.first() == Some(&"total") {
            let n = |i: usize| cols[i].parse::<usize>().unwrap();
            out.push((n(1), n(2), n(3), binaries));
            binaries = 0;
        }
    }
    out
}

/// `(passed, failed, ignored)` of one binary's row in a summary.
fn row(text: &str, binary: &str) -> (usize, usize, usize) {
    let line = text.lines().find(|l| l.starts_with(&format!("{binary} "))).unwrap();
    let cols: Vec<usize> =
        line.split_whitespace().skip(1).take(3).map(|c| c.parse().unwrap()).collect();
    (cols[0], cols[1], cols[2])
}

fn readme() -> String {
    std::fs::read_to_string(workspace_root().join("README.md"))
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_first_runs_counts_are_its_summary() {
    let [(passed, failed, ignored, binaries)] =
        tables(&run_file("2026-11-26-h100", "summary.txt"))[..]
    else {
        panic!("one table")
    };
    let said = format!(
        "**{passed} tests passed, {failed} failed, {ignored} ignored** in {binaries} binaries"
    );
    assert_eq!(said, "**420 tests passed, 0 failed, 38 ignored** in 26 binaries");
    assert!(readme().contains(&said));
}

#[test]
fn the_second_runs_counts_are_its_summaries() {
    let run = "2026-11-26-h100-c912705";
    let [(passed, failed, ignored, binaries)] = tables(&run_file(run, "summary.txt"))[..] else {
        panic!("one table")
    };
    let said = format!(
        "**{passed} tests passed, {failed} failed, {ignored} ignored** in {binaries} binaries"
    );
    assert_eq!(said, "**439 tests passed, 0 failed, 49 ignored** in 28 binaries");
    let models = run_file(run, "models-summary.txt");
    let count = |binary: &str| {
        let (p, f, i) = row(&models, binary);
        assert_eq!(i, 0, "{binary}: run with --include-ignored");
        (p, p + f)
    };
    let (bert, whisper, llm) = (
        count("ch12-real-bert.tests"),
        count("ch13-real-whisper.tests"),
        count("ch11-real-llm.tests"),
    );
    assert_eq!((bert, whisper, llm), ((49, 49), (25, 26), (58, 60)));
    let text = readme();
    assert!(text.contains(&said), "{said}");
    for sentence in [
        format!("chapter 12's {} all passed", bert.0),
        format!("chapter 13's {} of {}", whisper.0, whisper.1),
        format!("chapter 11's {} of {} passed", llm.0, llm.1),
    ] {
        assert!(text.contains(&sentence), "{sentence}");
    }
}

#[test]
fn the_third_runs_counts_are_its_summaries() {
    let run = "2026-11-27-h100-4a421ea";
    let text = readme();
    let [(passed, failed, ignored, binaries)] = tables(&run_file(run, "summary.txt"))[..] else {
        panic!("one table")
    };
    let said = format!(
        "**{passed} tests passed, {failed} failed, {ignored} ignored** in {binaries} binaries"
    );
    assert_eq!(said, "**456 tests passed, 2 failed, 50 ignored** in 30 binaries");
    assert!(text.contains(&said), "{said}");
    // the first run of that session: chapter 14's four failures
    let first = run_file(run, "summary-2f283af.txt");
    assert_eq!(row(&first, "ch14-modern-attention.tests"), (12, 4, 1));
    // the corrected gather kernel: chapter 10's GPU checks and chapter 11 with its model
    let consistency = run_file(run, "gpu-consistency.txt");
    assert_eq!(row(&consistency, "ch10-language-models.tests"), (3, 0, 0));
    assert!(text.contains("passed (3 of 3)"));
    let (p, f, i) = row(&run_file(run, "models-summary.txt"), "ch11-real-llm.tests");
    assert_eq!((p, f, i), (60, 0, 0));
    assert!(text.contains(&format!("**{p} of {}**", p + f)));
    // chapter 14 after its corrections
    let ch14 = run_file(run, "ch14-h200.txt");
    let (p, f, i) = row(&ch14, "ch14-modern-attention.tests");
    assert_eq!((p, f, i), (16, 0, 1));
    assert!(text.contains(&format!("**{p} of {}** ({i} ignored", p + f)));
}

#[test]
fn the_fourth_runs_counts_are_its_summaries() {
    let text = readme();
    let [(passed, failed, ignored, binaries)] =
        tables(&run_file("2026-11-29-h200-a7a9ab0", "summary.txt"))[..]
    else {
        panic!("one table")
    };
    let said = format!(
        "**{passed} tests passed, {failed} failed, {ignored} ignored** in {binaries} binaries"
    );
    assert_eq!(said, "**521 tests passed, 1 failed, 53 ignored** in 30 binaries");
    assert!(text.contains(&said), "{said}");
    let first = run_file("2026-11-29-h200-a7a9ab0", "summary.txt");
    assert_eq!(row(&first, "ch14-modern-attention.tests"), (38, 1, 1));
    assert!(first.contains("failed: variants::a_rerun_starts_as_the_committed_runs"));
    // the second call: chapters 8 and 14 only, every test passed
    let second = run_file("2026-11-29-h200-84be82a", "summary.txt");
    let [(p, f, _, binaries)] = tables(&second)[..] else { panic!("one table") };
    assert_eq!((p, f, binaries), (85, 0, 4));
    assert!(text.contains(&format!("chapters 8 and 14 passed **{p} of {}**", p + f)));
    assert_eq!(row(&second, "ch08-efficient.tests"), (36, 0, 1));
    // the kernel tried and dropped
    let tried = run_file("2026-11-29-h200-f6cc795", "summary.txt");
    let [(p, f, _, _)] = tables(&tried)[..] else { panic!("one table") };
    assert_eq!(row(&tried, "ch08-efficient.tests"), (38, 0, 1));
    assert!(text.contains(&format!("chapter 8 passed **{p} of {}**", p + f)));
    // the other timing programs: criterion's means, and chapter 1 at 8,192 tokens
    let means = |file: &str| -> Vec<String> {
        let text = run_file("2026-11-29-h200-a7a9ab0", file);
        let mean = |l: &str| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "time:")?;
            words.get(at + 3).map(|w| w.to_string())
        };
        text.lines().filter(|l| l.contains("time:")).filter_map(mean).collect()
    };
    assert_eq!(means("timing-ch07-vit.bench.train_step.txt"), ["14.937", "17.899"]);
    assert_eq!(means("timing-ch09-capstone.bench.train_step.txt"), ["61.348"]);
    let dense =
        run_file("2026-11-29-h200-a7a9ab0", "timing-ch01-attention.example.device_timing.txt");
    assert!(dense.lines().any(|l| l.split_whitespace().take(2).eq(["8192", "30.179"])));
    assert!(text.contains("n = 8,192 30.2 ms; chapter 7's ViT 14.9 ms a training step, 17.9 ms"));
    assert!(text.contains("training step 61.3 ms (criterion's mean)"));
}

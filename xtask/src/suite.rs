//! The whole suite: the README's test command, step by step, with a timed summary.

use crate::run::{cargo, cargo_with};
use crate::{check, models, setup, test_build, wasm};
use anyhow::{Context, Result};
use std::cell::RefCell;
use std::path::Path;
use std::time::{Duration, Instant};
use workspace_tools::Chapter;

pub fn test(root: &Path) -> Result<()> {
    let mut steps: Vec<(String, Duration)> = Vec::new();
    let mut step = |name: &str, f: &dyn Fn() -> Result<()>| -> Result<()> {
        println!("\n==== {name} ====");
        let start = Instant::now();
        let r = f();
        steps.push((name.to_string(), start.elapsed()));
        r.with_context(|| format!("step `{name}` failed"))
    };
    // the evcxr kernel builds (minutes of compiling) while Jupyter, chromium and the models
    // download, and on beside the wasm, lint and test builds: it is waited for only when the
    // notebooks start
    let evcxr = RefCell::new(None);
    step(
        "setup: lint tools, Jupyter, chromium, Debian's web toolchain; evcxr's build started",
        &|| {
            *evcxr.borrow_mut() = Some(setup::start()?);
            // the wasm step's apt-get install, done here while evcxr builds
            if !workspace_tools::debian::rustup_has_wasm_target() {
                wasm::debian_toolchain()?;
            }
            Ok(())
        },
    )?;
    step("the published models (cargo xtask models)", &models::models)?;
    step("the book's live widgets in WebAssembly (cargo xtask wasm)", &|| {
        wasm::wasm(root).map(drop)
    })?;
    step("format (cargo fmt --check)", &|| check::fmt(root))?;
    step("lints (cargo clippy -D warnings)", &|| check::clippy(root))?;
    // `--tests` builds no example: the checks build the programs they run (the printed outputs,
    // the arguments refused), and clippy has type-checked every one; the figures' and training
    // programs that no check runs are not compiled twice
    const TESTS: [&str; 4] = ["test", "--workspace", "--no-fail-fast", "--tests"];
    // the notebooks run beside every step after this one, and start part-way through it: evcxr's
    // build ran beside every step since the setup, and only they need it; side by side with the
    // steps after the tests, they took 836.6 s against 1,065.8 s one step after another; where
    // they start is `test_build`'s (CONTRIBUTING.md)
    let notebooks = RefCell::new(None);
    let chapters = Chapter::all(root)?.len();
    step(
        "Rust tests compiled (cargo test --workspace --tests --no-run), the notebooks started part-way",
        &|| {
            let args = [&TESTS[..], &["--no-run"]].concat();
            let kernel = evcxr.borrow_mut().take().expect("setup started it");
            let running = test_build::build_and_start_notebooks(root, &args, chapters, kernel)?;
            *notebooks.borrow_mut() = Some(running);
            Ok(())
        },
    )?;
    step("Rust tests, doctests, printed outputs (cargo test --workspace)", &|| {
        let tests = cargo(root, &TESTS);
        let docs = cargo(root, &["test", "--workspace", "--no-fail-fast", "--doc"]);
        tests.and(docs)
    })?;
    step("tests that need the published models (their ignored tests)", &|| {
        // every chapter's `tests` binary with `--ignored`, but for chapters 7 and 9's full
        // training runs (`training::`) and the runs that redo a committed reading from end to end
        // (`full_run::`), which the suite leaves to `cargo test --release`; `--workspace` keeps
        // the features of the step before, so nothing is rebuilt; every binary runs even after
        // one fails (`--no-fail-fast`), so one failure hides no other
        let ignored = ["--ignored", "--skip", "training::", "--skip", "full_run::"];
        let chapters = cargo(root, &[&MODEL_TESTS[..], &ignored].concat());
        // and the page's Whisper natively: the models' module on the bundle the page sends
        let module = ["test", "--workspace", "--lib", "--", "--ignored", "the_module_hears_a_clip"];
        chapters.and(cargo(root, &module))
    })?;
    step("committed readings on the narrower instruction sets (ATTENTION_ISA)", &|| {
        narrower_instruction_sets(root)
    })?;
    step("book build, browser check, installs, the models' printed outputs", &|| {
        // each of Whisper's clips heard once in the page: the rounds are for the committed
        // timings (`web-models/measured/hear.md`), the ids and word times are the same in each
        let args = [&CHECKS[..], &["--skip", "notebooks::"]].concat();
        cargo_with(root, &args, &[("ATTENTION_ROUNDS", "1")])
    })?;
    step("CUDA path type-checked (dfdx ci-check)", &|| cuda_check(root))?;
    let ran = RefCell::new(Duration::ZERO);
    step("notebooks: waited for, their output shown", &|| {
        *ran.borrow_mut() = notebooks.borrow_mut().take().expect("started above").finish()?;
        Ok(())
    })?;
    println!("\n==== summary ====");
    for (name, d) in &steps {
        println!("ok  {:>6.1?}  {name}", d);
    }
    println!("(the notebooks ran for {:.1?}, beside the steps after the tests)", ran.borrow());
    println!("all {} steps passed", steps.len());
    Ok(())
}

/// The workspace checks' ignored tests (`browser::`, `notebooks::` …), one at a time;
/// `--workspace` keeps the features the test step resolved, so nothing is rebuilt (`-p
/// workspace-checks` alone resolves them differently and compiled for 2 minutes).
const CHECKS: [&str; 7] =
    ["test", "--workspace", "--test", "checks", "--", "--ignored", "--test-threads=1"];
/// Every chapter's `tests` binary, built with the features of the steps before it.
const MODEL_TESTS: [&str; 6] = ["test", "--workspace", "--test", "tests", "--no-fail-fast", "--"];

/// The tests that recompute a committed reading through chapter 8's kernels, which
/// `ATTENTION_ISA` steers: chapter 11's streaming perplexities (its `Decoder`) and chapter 13's
/// alignment heads (`FastWhisper`).
const READINGS_ON_THE_KERNELS: [&str; 2] =
    ["decode_real::the_committed_reading", "heads::the_committed_reading"];

/// The tests that recompute a committed reading on dfdx's models alone: chapter 11's head roles
/// (`SmolLm2`) and chapter 12's looks (dfdx's BERT layers). `ATTENTION_ISA` does not reach them,
/// and dfdx's matrix product takes the same FMA path on every x86 CPU with AVX2 (gemm's AVX-512
/// kernels need its `nightly` feature), so they run once, natively, in the models' step.
const READINGS_ON_DFDX: [&str; 2] =
    ["head_roles::the_committed_reading", "looks::the_committed_reading"];

/// The tests that recompute a committed reading through chapter 8's kernels, again on each
/// instruction set this CPU has below its widest (`ATTENTION_ISA=portable`, `avx2`): the kernels
/// sum in another order on each, as on a user's machine of another kind, and each reading's
/// tolerance must cover them all.
fn narrower_instruction_sets(root: &Path) -> Result<()> {
    let (narrower, widest) = instruction_sets();
    let args = [&MODEL_TESTS[..], &["--include-ignored"], &READINGS_ON_THE_KERNELS[..]].concat();
    for isa in &narrower {
        println!("ATTENTION_ISA={isa}");
        cargo_with(root, &args, &[("ATTENTION_ISA", isa)])?;
    }
    println!("committed readings checked on {} as well as {widest}", narrower.join(" and "));
    println!(
        "(on dfdx's models alone, run once in the step before: {})",
        READINGS_ON_DFDX.join(", ")
    );
    Ok(())
}

/// The instruction sets chapter 8's `Isa` can take on this CPU below its widest, and the widest
/// (the same detection as `ch08_efficient::fast::Isa::supported`, without building dfdx here).
fn instruction_sets() -> (Vec<&'static str>, &'static str) {
    #[cfg(target_arch = "x86_64")]
    {
        let avx2 = std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma");
        if std::arch::is_x86_feature_detected!("avx512f") {
            return (if avx2 { vec!["portable", "avx2"] } else { vec!["portable"] }, "avx512");
        }
        if avx2 {
            return (vec!["portable"], "avx2");
        }
    }
    (vec![], "portable")
}

/// Every chapter crate and support with its `cuda` feature; `dfdx/ci-check` compiles the CUDA
/// code paths without a GPU or the CUDA toolkit (its kernels are empty: never run it). The whole
/// workspace, so that cargo resolves the features of every crate the GPU path leaves alone as
/// clippy did (syn, serde's derive, regex, clap …) and checks again only what the `cuda` features
/// change: dfdx, cudarc and the crates above them. Right after clippy's build, with the chapters
/// alone (`-p`) the check took 34.6 and 36.8 s of processor time, with the whole workspace 22.6
/// and 23.9 (two pairs on a 2-core Intel Xeon), and it now type-checks the workspace checks too.
fn cuda_check(root: &Path) -> Result<()> {
    let features = cuda_features(root, &["dfdx/ci-check"])?;
    cargo(root, &["check", "--workspace", "--all-targets", "--features", &features])
}

/// `support/cuda,ch01-…/cuda,…` and the `extra` features, comma-separated.
fn cuda_features(root: &Path, extra: &[&str]) -> Result<String> {
    let mut features = vec!["support/cuda".to_string()];
    features.extend(extra.iter().map(|f| f.to_string()));
    for chapter in Chapter::all(root)? {
        features.push(format!("{}/cuda", chapter.package));
    }
    Ok(features.join(","))
}

/// `-p support -p ch01-… … --features support/cuda,ch01-…/cuda,…` and `extra` features: support
/// and every chapter crate built for the GPU (`cargo xtask gpu-kit`).
pub fn cuda_packages(root: &Path, extra: &[&str]) -> Result<Vec<String>> {
    let mut args = vec!["-p".to_string(), "support".into()];
    for chapter in Chapter::all(root)? {
        args.extend(["-p".to_string(), chapter.package]);
    }
    args.extend(["--features".to_string(), cuda_features(root, extra)?]);
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::{READINGS_ON_DFDX, READINGS_ON_THE_KERNELS};
    use workspace_tools::{workspace_root, Chapter};

    /// Every test that recomputes a committed reading (`committed_reading` in its name), as
    /// `file::name` of its chapter's `tests/`.
    fn committed_readings() -> Vec<String> {
        let mut found = Vec::new();
        for chapter in Chapter::all(&workspace_root()).unwrap() {
            let Ok(files) = std::fs::read_dir(chapter.dir.join("tests")) else { continue };
            for file in files.map(|f| f.unwrap().path()) {
                let Ok(source) = std::fs::read_to_string(&file) else { continue };
                let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
                for line in source.lines() {
                    let Some(name) = line.trim_start().strip_prefix("fn ") else { continue };
                    let name = name.split('(').next().unwrap();
                    if name.contains("committed_reading") {
                        found.push(format!("{stem}::{name}"));
                    }
                }
            }
        }
        found
    }

    /// A new committed reading has to be placed on one side: run on each instruction set, or
    /// once because it never passes through chapter 8's kernels.
    #[test]
    fn every_committed_reading_is_placed_once() {
        let found = committed_readings();
        assert_eq!(found.len(), 4, "{found:?}");
        for test in &found {
            let places: Vec<&str> = [&READINGS_ON_THE_KERNELS[..], &READINGS_ON_DFDX[..]]
                .concat()
                .into_iter()
                .filter(|filter| test.contains(filter))
                .collect();
            assert_eq!(places.len(), 1, "{test}: matched by {places:?}");
        }
        for filter in READINGS_ON_THE_KERNELS.iter().chain(&READINGS_ON_DFDX) {
            assert!(found.iter().any(|t| t.contains(filter)), "{filter} matches no test");
        }
    }
}

//! The suite's test build, with the notebooks started part-way through it.
//!
//! The notebooks run on about one core (each cell is a small build, then its run), beside the
//! steps after the test build. Started after the whole test build, they ended 60 to 118 s after
//! those steps, on one core of the two; started once the workspace checks alone were built, the
//! rest of the test build beside them took 214.7 s against 141.6, and the steps after it ended
//! 108 s after the notebooks (fresh clones on a 2-core Intel Xeon, CONTRIBUTING.md). They now
//! start in between: once the checks' program and half the chapters' test programs are built.
//! Then everything else of the run yields the processors to them (niceness 10, `run::yield_to`):
//! the notebooks are one long chain of small builds and runs, and the other steps' work fills the
//! processor time they leave.

use crate::run::{cargo_json, Background};
use crate::setup::EvcxrBuild;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// What the build has produced so far that the notebooks' start waits on.
#[derive(Default)]
struct Built {
    /// The workspace checks' test program: the notebooks' run is one of its tests.
    checks: Option<PathBuf>,
    /// How many chapters' `tests` programs are built.
    chapters: usize,
}

impl Built {
    /// Notes one of cargo's JSON messages.
    fn note(&mut self, message: &serde_json::Value) {
        if message["reason"] != "compiler-artifact" {
            return;
        }
        let Some(program) = message["executable"].as_str() else { return };
        match message["target"]["name"].as_str() {
            Some("checks") => self.checks = Some(PathBuf::from(program)),
            Some("tests") => self.chapters += 1,
            _ => {}
        }
    }

    /// The checks' program, once it and `half` of the chapters' test programs are built.
    fn ready(&self, half: usize) -> Option<&Path> {
        self.checks.as_deref().filter(|_| self.chapters >= half)
    }
}

/// Runs `cargo ARGS` (the test build, `--no-run`) and starts the notebooks part-way through it
/// (once the checks' program and half of the `chapters` test programs are built, and evcxr's build
/// has ended), or after it where evcxr was still building then; returns them running.
pub fn build_and_start_notebooks(
    root: &Path,
    args: &[&str],
    chapters: usize,
    evcxr: EvcxrBuild,
) -> Result<Background> {
    let half = chapters.div_ceil(2);
    let mut built = Built::default();
    let mut evcxr = Some(evcxr);
    let mut notebooks = None;
    cargo_json(root, args, &mut |message| {
        built.note(message);
        if let (Some(checks), Some(kernel)) = (built.ready(half), evcxr.as_mut()) {
            if notebooks.is_none() && kernel.has_ended() {
                println!(
                    "(the checks' program and {} of the {chapters} chapters' test programs built)",
                    built.chapters
                );
                evcxr.take().expect("checked").finish()?;
                let running = start_notebooks(root, checks)?;
                crate::run::yield_to(&running);
                notebooks = Some(running);
            }
        }
        Ok(())
    })?;
    match notebooks {
        Some(running) => Ok(running),
        None => {
            println!("(evcxr's build had not ended part-way: the notebooks start after the build)");
            evcxr.take().expect("not taken").finish()?;
            let checks = built.checks.context("the test build built no `checks` program")?;
            let running = start_notebooks(root, &checks)?;
            crate::run::yield_to(&running);
            Ok(running)
        }
    }
}

/// The checks' notebook tests, as the checks' program itself (as `cargo test` runs it: from its
/// package's folder), so that no cargo of theirs waits on the lock of the build still running.
fn start_notebooks(root: &Path, checks: &Path) -> Result<Background> {
    let args = ["--ignored", "--test-threads=1", "notebooks::"];
    let (dir, log) = (root.join("tests"), root.join("target/notebooks.log"));
    let env = [("LD_LIBRARY_PATH", toolchain_library_path()?)];
    Background::start_program(&dir, checks, &args, &env, log)
}

/// `LD_LIBRARY_PATH` with the toolchain's library folder for this machine first
/// (`rustc --print target-libdir`), as `cargo test` runs a test program: evcxr's kernel loads
/// each cell against the standard library's shared object found there (without it every cell
/// fails, "Subprocess terminated with status: exit status: 99").
fn toolchain_library_path() -> Result<String> {
    let out = std::process::Command::new("rustc").args(["--print", "target-libdir"]).output()?;
    let mut path = String::from_utf8(out.stdout)?.trim().to_string();
    if let Some(old) = std::env::var_os("LD_LIBRARY_PATH").filter(|p| !p.is_empty()) {
        path = format!("{path}:{}", old.to_string_lossy());
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::Built;
    use serde_json::json;

    fn artifact(name: &str, executable: Option<&str>) -> serde_json::Value {
        json!({"reason": "compiler-artifact", "target": {"name": name}, "executable": executable})
    }

    #[test]
    fn the_start_waits_for_the_checks_and_half_the_chapters() {
        let mut built = Built::default();
        built.note(&artifact("tests", Some("/t/tests-1")));
        // a library (no program) and a message of another kind count for nothing
        built.note(&artifact("tests", None));
        built.note(&json!({"reason": "build-finished", "success": true}));
        built.note(&artifact("killed_save", Some("/t/killed_save-1")));
        assert_eq!(built.chapters, 1);
        assert!(built.ready(2).is_none(), "no checks program yet");
        built.note(&artifact("checks", Some("/t/checks-1")));
        assert!(built.ready(2).is_none(), "one chapter of the two needed");
        built.note(&artifact("tests", Some("/t/tests-2")));
        assert_eq!(built.ready(2), Some(std::path::Path::new("/t/checks-1")));
    }
}

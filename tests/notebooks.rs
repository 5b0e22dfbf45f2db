//! The notebooks: committed clean, and executed top to bottom by Jupyter on the evcxr kernel with
//! no cell that errors or panics.
//!
//! The tests that execute notebooks need Jupyter and the evcxr kernel (`cargo xtask setup`), so they
//! are `#[ignore]`d here and run by `cargo xtask test` with `--ignored`. Without the tools they fail
//! and say how to install them.

use std::path::PathBuf;
use workspace_checks::notebook::{check_source, execute, read};
use workspace_checks::workspace_root;

fn notebooks() -> Vec<PathBuf> {
    let dir = workspace_root().join("notebooks");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ipynb"))
        .collect();
    v.sort();
    v
}

fn out_dir(name: &str) -> PathBuf {
    workspace_root().join("target").join(name)
}

#[test]
fn every_chapter_has_a_clean_notebook() {
    let nbs = notebooks();
    for chapter in std::fs::read_dir(workspace_root().join("chapters")).unwrap() {
        let name = chapter.unwrap().file_name().to_string_lossy().to_string();
        let num = &name[..2];
        assert!(
            nbs.iter().any(|p| p
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&format!("{num}-"))),
            "chapter {name} has no notebooks/{num}-*.ipynb"
        );
    }
    for nb in &nbs {
        let problems = check_source(&read(nb).unwrap()).unwrap();
        assert!(problems.is_empty(), "{}:\n{}", nb.display(), list(&problems));
    }
}

fn list(p: &[workspace_checks::notebook::Problem]) -> String {
    p.iter().map(|p| format!("  {p}")).collect::<Vec<_>>().join("\n")
}

#[test]
#[ignore = "needs Jupyter and the evcxr kernel: cargo xtask setup"]
fn checker_catches_a_panicking_cell() {
    let fixtures = workspace_root().join("tests/fixtures");
    let (_, problems) =
        execute(&fixtures.join("failing-panic.ipynb"), &out_dir("notebooks-fixtures")).unwrap();
    assert_eq!(problems.len(), 1, "expected exactly the panic of cell 1:\n{}", list(&problems));
    assert_eq!(problems[0].cell, Some(1));
    assert!(problems[0].message.contains("panicked"), "{}", problems[0]);
    assert!(problems[0].message.contains("index out of bounds"), "{}", problems[0]);
}

#[test]
#[ignore = "needs Jupyter and the evcxr kernel: cargo xtask setup"]
fn checker_catches_a_compile_error() {
    let fixtures = workspace_root().join("tests/fixtures");
    let (_, problems) =
        execute(&fixtures.join("failing-compile.ipynb"), &out_dir("notebooks-fixtures")).unwrap();
    assert!(!problems.is_empty(), "a cell that does not compile must be reported");
    assert!(problems.iter().all(|p| p.cell == Some(0)), "{}", list(&problems));
    assert!(list(&problems).contains("mismatched types"), "{}", list(&problems));
}

#[test]
#[ignore = "needs Jupyter and the evcxr kernel: cargo xtask setup"]
fn checker_passes_a_good_notebook() {
    let fixtures = workspace_root().join("tests/fixtures");
    let (_, problems) =
        execute(&fixtures.join("passing.ipynb"), &out_dir("notebooks-fixtures")).unwrap();
    assert!(problems.is_empty(), "{}", list(&problems));
}

#[test]
#[ignore = "needs Jupyter and the evcxr kernel: cargo xtask setup"]
fn every_notebook_executes_cleanly() {
    let nbs = notebooks();
    assert!(!nbs.is_empty(), "no notebooks found");
    let mut failures = Vec::new();
    for nb in &nbs {
        let start = std::time::Instant::now();
        match execute(nb, &out_dir("notebooks")) {
            Ok((executed, problems)) if problems.is_empty() => {
                let svgs = read(&executed).unwrap().to_string().matches("image/svg+xml").count();
                eprintln!("ok   {} ({:.0?}, {svgs} inline figures)", nb.display(), start.elapsed());
                if svgs == 0 {
                    failures.push(format!("{}: no inline figure was shown", nb.display()));
                }
            }
            Ok((_, problems)) => failures.push(format!("{}:\n{}", nb.display(), list(&problems))),
            Err(e) => failures.push(format!("{}: {e:#}", nb.display())),
        }
    }
    assert!(failures.is_empty(), "notebooks failed:\n{}", failures.join("\n"));
}

//! The notebooks: committed clean, and executed top to bottom by Jupyter on the evcxr kernel with
//! no cell that errors or panics.
//!
//! The tests that execute notebooks need Jupyter and the evcxr kernel (`cargo xtask setup`), so they
//! are `#[ignore]`d here and run by `cargo xtask test` with `--ignored`. Without the tools they fail
//! and say how to install them.

use std::path::PathBuf;
use workspace_tools::notebook::{
    check_source, dep_line, execute, execute_all, read, seconds_executing, Problem,
};
use workspace_tools::{workspace_root, Chapter};

/// Every chapter's notebook (that each exists is checked by `layout.rs`).
fn notebooks() -> Vec<PathBuf> {
    Chapter::all(&workspace_root()).unwrap().into_iter().map(|c| c.notebook).collect()
}

fn out_dir(name: &str) -> PathBuf {
    workspace_root().join("target").join(name)
}

#[test]
fn every_notebook_is_committed_clean() {
    for nb in &notebooks() {
        let problems = check_source(&read(nb).unwrap()).unwrap();
        assert!(problems.is_empty(), "{}:\n{}", nb.display(), list(&problems));
    }
}

#[test]
fn every_notebook_asks_dfdx_for_the_same_features() {
    // the kernels share one crate folder, where cargo compiles a crate once per set of features
    // of the crates below it: a notebook asking dfdx for fewer features than the others compiled
    // dfdx, `support` and every chapter crate above them a second time (chapters 1 to 6 and 8
    // without `safetensors`, 7 and 9 to 14 with it, before)
    let lines: Vec<(PathBuf, Option<String>)> = notebooks()
        .into_iter()
        .map(|nb| (nb.clone(), dep_line(&read(&nb).unwrap(), "dfdx")))
        .collect();
    let first = lines[0].1.clone().expect("chapter 1's notebook asks for dfdx");
    assert!(first.contains("\"safetensors\""), "{first}");
    for (nb, line) in &lines {
        assert_eq!(line.as_ref(), Some(&first), "{} asks for dfdx otherwise", nb.display());
    }
}

#[test]
fn a_dep_line_is_found_in_a_cell_that_has_one() {
    let nb = serde_json::json!({"cells": [
        {"cell_type": "markdown", "source": ":dep dfdx = \"in prose\""},
        {"cell_type": "code", "source": ["let x = 1;\n"]},
        {"cell_type": "code", "source": [":cache 4096\n", ":dep dfdx = { version = \"0.13\" }\n"]},
    ]});
    assert_eq!(dep_line(&nb, "dfdx").as_deref(), Some(":dep dfdx = { version = \"0.13\" }"));
    assert_eq!(dep_line(&nb, "dfd"), None);
    assert_eq!(dep_line(&nb, "support"), None);
}

fn list(p: &[Problem]) -> String {
    p.iter().map(|p| format!("  {p}")).collect::<Vec<_>>().join("\n")
}

#[test]
#[ignore = "needs Jupyter and the evcxr kernel: cargo xtask setup"]
fn checker_catches_a_panicking_cell() {
    let fixtures = workspace_root().join("tests/fixtures");
    let (_, problems) =
        execute(&fixtures.join("failing-panic.ipynb"), &out_dir("notebooks-fixtures")).unwrap();
    assert_eq!(problems.len(), 1, "expected exactly the panic of cell 1:\n{}", list(&problems));
    // evcxr catches the panic and writes its text from the child process's stderr on a thread of
    // its own, which may reach Jupyter after cell 1's reply, and Jupyter then files it under the
    // next cell (seen once in many runs); the executed notebook cannot tell the two apart, so
    // the panic must be under cell 1 or the one after it, never anywhere else
    assert!(matches!(problems[0].cell, Some(1 | 2)), "{}", problems[0]);
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
fn checker_catches_a_time_without_its_machine_and_a_unit_output() {
    let fixtures = workspace_root().join("tests/fixtures");
    let (_, problems) =
        execute(&fixtures.join("failing-timing.ipynb"), &out_dir("notebooks-fixtures")).unwrap();
    assert_eq!(problems.len(), 2, "expected cells 0 and 1 only:\n{}", list(&problems));
    assert_eq!((problems[0].cell, problems[1].cell), (Some(0), Some(1)), "{}", list(&problems));
    assert!(problems[0].message.contains("no machine beside it"), "{}", problems[0]);
    assert!(problems[1].message.contains("shows `()`"), "{}", problems[1]);
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
    // one run of Jupyter for all of them, each on a kernel of its own
    let paths: Vec<&std::path::Path> = nbs.iter().map(PathBuf::as_path).collect();
    let executed = execute_all(&paths, &out_dir("notebooks")).unwrap_or_else(|e| panic!("{e:#}"));
    let mut failures = Vec::new();
    for (nb, (executed, problems)) in nbs.iter().zip(executed) {
        if !problems.is_empty() {
            failures.push(format!("{}:\n{}", nb.display(), list(&problems)));
            continue;
        }
        let executed = read(&executed).unwrap();
        let svgs = executed.to_string().matches("image/svg+xml").count();
        let ran = seconds_executing(&executed).unwrap_or(f64::NAN);
        eprintln!("ok   {} ({ran:.0} s of cells, {svgs} inline figures)", nb.display());
        if svgs == 0 {
            failures.push(format!("{}: no inline figure was shown", nb.display()));
        }
    }
    assert!(failures.is_empty(), "notebooks failed:\n{}", failures.join("\n"));
}

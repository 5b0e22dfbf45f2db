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

/// One fixture notebook holds a cell of each kind the checker reports and good cells between
/// them: one kernel started instead of four (about 9.5 s each on a 2-core machine, most of it
/// rust-analyzer reading the standard library), and a report that names a good cell fails here.
#[test]
#[ignore = "needs Jupyter and the evcxr kernel: cargo xtask setup"]
fn checker_reports_each_bad_cell_and_no_good_one() {
    let fixture = workspace_root().join("tests/fixtures/checker.ipynb");
    let (_, problems) = execute(&fixture, &out_dir("notebooks-fixtures")).unwrap();
    let at = |cell: usize| -> Vec<&Problem> {
        problems.iter().filter(|p| p.cell == Some(cell)).collect()
    };
    // cell 0 does not compile: every message rustc gives is filed under it
    assert!(!at(0).is_empty(), "cell 0 does not compile:\n{}", list(&problems));
    assert!(at(0).iter().any(|p| p.message.contains("mismatched types")), "{}", list(&problems));
    // cell 1 prints a time with no machine beside it, cell 2 shows `()`
    assert_eq!(at(1).len(), 1, "{}", list(&problems));
    assert!(at(1)[0].message.contains("no machine beside it"), "{}", at(1)[0]);
    assert_eq!(at(2).len(), 1, "{}", list(&problems));
    assert!(at(2)[0].message.contains("shows `()`"), "{}", at(2)[0]);
    // cells 3 and 4 are good: a time with its machine, an assertion that holds
    assert!(at(3).is_empty() && at(4).is_empty(), "{}", list(&problems));
    // cell 5 panics. evcxr catches the panic and writes its text from the child process's stderr
    // on a thread of its own, which may reach Jupyter after cell 5's reply, and Jupyter then files
    // it under the next cell (seen once in many runs); the executed notebook cannot tell the two
    // apart, so the panic must be under cell 5 or the one after it, and be the only problem there
    let panics: Vec<&Problem> = at(5).into_iter().chain(at(6)).collect();
    assert_eq!(panics.len(), 1, "expected the panic of cell 5 alone:\n{}", list(&problems));
    assert!(panics[0].message.contains("panicked"), "{}", panics[0]);
    assert!(panics[0].message.contains("index out of bounds"), "{}", panics[0]);
    // and nothing anywhere else: cell 0's messages, cells 1 and 2, the panic
    assert_eq!(problems.len(), at(0).len() + 3, "{}", list(&problems));
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

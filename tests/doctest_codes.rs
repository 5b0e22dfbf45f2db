//! `compile_fail` doctests must fail for the reason they show: each names its error code
//! (```` ```rust,compile_fail,E0308 ````), and the rustdoc cargo uses checks it
//! (`tools/rustdoc-with-error-codes`, set as `build.rustdoc` in `.cargo/config.toml`).

use std::path::{Path, PathBuf};
use std::process::Command;
use workspace_tools::workspace_root;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "target") {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "md" || e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_compile_fail_doctest_names_its_error() {
    let root = workspace_root();
    let mut files = Vec::new();
    for dir in ["chapters", "support"] {
        sources(&root.join(dir), &mut files);
    }
    let fence = regex::Regex::new(r"```rust,compile_fail(,E\d{4})?\b").unwrap();
    let (mut named, mut unnamed) = (0, Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (i, line) in text.lines().enumerate() {
            if let Some(c) = fence.captures(line) {
                if c.get(1).is_some() {
                    named += 1;
                } else {
                    unnamed.push(format!(
                        "{}:{}",
                        file.strip_prefix(&root).unwrap().display(),
                        i + 1
                    ));
                }
            }
        }
    }
    assert!(unnamed.is_empty(), "compile_fail doctests without an error code: {unnamed:?}");
    assert!(named >= 5, "expected the chapters' shape-error doctests, found {named}");
}

/// Runs the project's rustdoc on a one-block Markdown file.
fn rustdoc_test(dir: &Path, block: &str) -> std::process::Output {
    let md = dir.join("t.md");
    std::fs::write(&md, format!("# t\n\n{block}\n")).unwrap();
    Command::new(workspace_root().join("tools/rustdoc-with-error-codes"))
        .arg("--test")
        .arg(&md)
        .current_dir(dir)
        .output()
        .expect("tools/rustdoc-with-error-codes runs")
}

#[test]
fn the_projects_rustdoc_checks_error_codes() {
    let dir = tempfile::tempdir().unwrap();
    let wrong = rustdoc_test(dir.path(), "```rust,compile_fail,E0277\nlet x: u32 = \"a\";\n```");
    assert!(
        !wrong.status.success(),
        "a compile_fail doctest with the wrong error code (E0277 for an E0308) passed:\n{}",
        String::from_utf8_lossy(&wrong.stdout)
    );
    let right = rustdoc_test(dir.path(), "```rust,compile_fail,E0308\nlet x: u32 = \"a\";\n```");
    assert!(right.status.success(), "{}", String::from_utf8_lossy(&right.stdout));
}

#[test]
fn cargo_uses_the_projects_rustdoc() {
    let config = std::fs::read_to_string(workspace_root().join(".cargo/config.toml")).unwrap();
    assert!(config.contains("rustdoc = \"tools/rustdoc-with-error-codes\""), "{config}");
}

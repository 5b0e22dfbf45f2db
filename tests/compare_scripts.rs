//! The speed comparisons' shared Python (`support/compare/speed_run.py`) runs the chapter's
//! timing example from where cargo built it: `CARGO_TARGET_DIR` where it is set, as cargo reads
//! it (a relative path from the workspace), else the workspace's `target/`.

use std::path::{Path, PathBuf};
use std::process::Command;

use workspace_tools::workspace_root;

/// What `speed_run.target_dir()` says with `CARGO_TARGET_DIR` at `value` (unset for `None`).
fn target_dir_with(value: Option<&str>) -> PathBuf {
    let root = workspace_root();
    let mut python = Command::new("python3");
    python.current_dir(&root).args([
        "-c",
        "import sys; sys.path.insert(0, 'support/compare'); import speed_run; print(speed_run.target_dir())",
    ]);
    match value {
        Some(v) => python.env("CARGO_TARGET_DIR", v),
        None => python.env_remove("CARGO_TARGET_DIR"),
    };
    let out = python.output().expect("python3 runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

#[test]
fn the_compare_scripts_find_the_examples_where_cargo_builds_them() {
    let root = workspace_root();
    assert_eq!(target_dir_with(None), root.join("target"));
    assert_eq!(target_dir_with(Some("/elsewhere/build")), Path::new("/elsewhere/build"));
    assert_eq!(target_dir_with(Some("build/here")), root.join("build/here"));
}

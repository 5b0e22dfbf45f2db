//! Helpers for the workspace-level checks in this folder.
//!
//! * `notebook`: reads an executed notebook and reports every cell that panicked or errored.
//! * `outputs`: the generated files that hold what the book's example programs print.
//! * [`chapters`], [`packages`]: the workspace's crates and the example programs each one has.

#[path = "notebook.rs"]
pub mod notebook;

#[path = "outputs.rs"]
pub mod outputs;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace root (the folder holding the top-level `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ has a parent").to_path_buf()
}

/// Every chapter crate, in folder order: (package name, its example names).
pub fn chapters() -> Vec<(String, BTreeSet<String>)> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(workspace_root().join("chapters"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    dirs.into_iter().map(|dir| (outputs::package_name(&dir).unwrap(), examples(&dir))).collect()
}

/// Every package of the workspace (the `members` of the top-level `Cargo.toml`, `dir/*` globs
/// expanded), by name, with its example names.
pub fn packages() -> BTreeMap<String, BTreeSet<String>> {
    let root = workspace_root();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let without_comments: String =
        manifest.lines().map(|l| l.split('#').next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    let members = without_comments
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("the top-level Cargo.toml has no `members = [...]`")
        .0;
    let mut dirs = Vec::new();
    for member in members.split('"').skip(1).step_by(2) {
        match member.strip_suffix("/*") {
            Some(parent) => {
                for e in std::fs::read_dir(root.join(parent)).unwrap() {
                    let dir = e.unwrap().path();
                    if dir.join("Cargo.toml").is_file() {
                        dirs.push(dir);
                    }
                }
            }
            None => dirs.push(root.join(member)),
        }
    }
    dirs.iter().map(|dir| (outputs::package_name(dir).unwrap(), examples(dir))).collect()
}

/// The example programs of the crate in `dir`, as cargo finds them: `examples/NAME.rs`,
/// `examples/NAME/main.rs`, and the `name` of each `[[example]]` table in its `Cargo.toml`.
pub fn examples(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if let Ok(entries) = std::fs::read_dir(dir.join("examples")) {
        for p in entries.map(|e| e.unwrap().path()) {
            let name = p.file_stem().unwrap().to_string_lossy().to_string();
            if p.extension().is_some_and(|e| e == "rs") || p.join("main.rs").is_file() {
                out.insert(name);
            }
        }
    }
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
    for table in manifest.split("[[example]]").skip(1) {
        let body = table.split("\n[").next().unwrap_or("");
        if let Some(name) = body.lines().find_map(|l| {
            let (key, value) = l.split_once('=')?;
            (key.trim() == "name").then(|| value.trim().trim_matches('"').to_string())
        }) {
            out.insert(name);
        }
    }
    out
}

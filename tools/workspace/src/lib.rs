//! The workspace's parts, for `cargo xtask` and the workspace checks in `tests/`.
//!
//! * [`Chapter`]: one chapter and everything named by its slug (`04-positions`): its crate
//!   `chapters/04-positions/` (package `ch04-positions`), its page `book/src/04-positions.md`,
//!   its notebook `notebooks/04-positions.ipynb`, its example programs and printed outputs.
//! * `debian`: what the suite installs from Debian's packages, and the proof (`dpkg -S`) that
//!   each file it relies on comes from a package it installs.
//! * `layout`: the checks that every chapter's parts share its slug and are listed where a reader
//!   looks for them (`SUMMARY.md`, the chapter tables of the README and the introduction).
//! * `manifest`: what a `Cargo.toml` says (package name, example programs, workspace members).
//! * `models`: the published models the book runs, pinned by PyPI version and sha256, in the cache.
//! * `outputs`: the generated files that hold what the book's example programs print.
//! * `notebook`: checking a notebook (as committed, and after it ran) and running it with Jupyter.
//! * `scaffold`: `cargo xtask new-chapter`, a new chapter that passes every check as created.

mod chapter;
pub mod debian;
pub mod layout;
pub mod manifest;
pub mod models;
pub mod notebook;
pub mod outputs;
pub mod scaffold;

pub use chapter::{Chapter, Slug};

use std::path::PathBuf;

/// The workspace root (the folder holding the top-level `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.ancestors().nth(2).expect("tools/workspace is two folders below the root").to_path_buf()
}

/// The cargo that runs this program (`$CARGO`, which cargo sets for the programs it runs), or the
/// `cargo` on the `PATH`.
pub fn cargo_program() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// Every file below `dir`, recursively, sorted by path.
pub fn files_under(dir: &std::path::Path) -> anyhow::Result<Vec<PathBuf>> {
    use anyhow::Context;
    let mut files = Vec::new();
    let entries = std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))?;
    for entry in entries {
        let path = entry?.path();
        if path.is_dir() {
            files.extend(files_under(&path)?);
        } else {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// The folder where the tasks keep what they install outside the repository (the notebooks' Python
/// venv, the CUDA toolkit of `cargo xtask gpu-kit`): `$XDG_CACHE_HOME/attention-in-rust`, or
/// `~/.cache/attention-in-rust`.
pub fn cache_dir() -> PathBuf {
    let cache = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache")
    });
    cache.join("attention-in-rust")
}

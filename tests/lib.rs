//! Helpers for the workspace-level checks in this folder.
//!
//! * `notebook`: reads an executed notebook and reports every cell that panicked or errored.
//! * `outputs`: the generated files that hold what the book's example programs print.

#[path = "notebook.rs"]
pub mod notebook;

#[path = "outputs.rs"]
pub mod outputs;

use std::path::PathBuf;

/// The workspace root (the folder holding the top-level `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ has a parent").to_path_buf()
}

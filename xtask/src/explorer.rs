//! Chapter 9's attention explorer: its data, `book/src/explorer/reversal.json`, computed by the
//! committed model (the page inlines the file when the book is built).

use crate::run::cargo;
use anyhow::Result;
use std::path::Path;

/// Runs the `explorer_data` example, which writes `book/src/explorer/reversal.json`.
pub fn explorer(root: &Path) -> Result<()> {
    cargo(root, &["run", "--release", "-p", "ch09-capstone", "--example", "explorer_data"])
}

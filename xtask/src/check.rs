//! The fast loop while editing: formatting, clippy, and the book's sources.

use crate::run::cargo;
use anyhow::Result;
use std::path::Path;
use std::time::Instant;

/// `cargo fmt --check`, clippy with warnings as errors, and the book's source checks.
pub fn check(root: &Path) -> Result<()> {
    let start = Instant::now();
    fmt(root)?;
    clippy(root)?;
    println!("$ (book source checks)");
    bookbuild::check_sources(root)?;
    println!("check: format, clippy and book sources clean in {:.0?}", start.elapsed());
    Ok(())
}

pub fn fmt(root: &Path) -> Result<()> {
    cargo(root, &["fmt", "--all", "--check"])
}

pub fn clippy(root: &Path) -> Result<()> {
    cargo(root, &["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])
}

//! The fast loop while editing: formatting, clippy, and the book's sources.

use crate::run::cargo;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;
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

/// What `cargo clippy` sets for the workspace's own crates, with warnings as errors: clippy's
/// driver as their compiler (cargo's `RUSTC_WORKSPACE_WRAPPER`) and its arguments.
///
/// The suite sets them for every cargo command after the wasm step, so that clippy lints each
/// crate while compiling it for real: `cargo clippy` type-checks every crate below the workspace
/// once more (check builds share nothing with real ones) and every workspace crate twice over.
/// Cargo keeps the wrapper in its fingerprints, so every later command of the suite must see the
/// same two (the notebooks' kernel and the CUDA type-check remove them: CONTRIBUTING.md).
pub const LINTED: [&str; 2] = ["RUSTC_WORKSPACE_WRAPPER", "CLIPPY_ARGS"];

/// Sets [`LINTED`] for this process and every command it starts.
pub fn lint_while_compiling() -> Result<()> {
    let driver = clippy_driver()?;
    std::env::set_var(LINTED[0], &driver);
    std::env::set_var(LINTED[1], "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__");
    println!("$ export {}={} {}=-Dwarnings", LINTED[0], driver.display(), LINTED[1]);
    Ok(())
}

/// `clippy-driver` beside the toolchain's `rustc` (rustup's clippy component).
fn clippy_driver() -> Result<PathBuf> {
    let out = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .args(["--print", "sysroot"])
        .output()
        .context("running rustc --print sysroot")?;
    let sysroot = String::from_utf8(out.stdout).context("rustc's sysroot is not UTF-8")?;
    let driver = Path::new(sysroot.trim()).join("bin").join("clippy-driver");
    if !driver.exists() {
        bail!("{} not found: add clippy (rustup component add clippy)", driver.display());
    }
    Ok(driver)
}

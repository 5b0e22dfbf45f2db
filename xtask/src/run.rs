//! Running programs, and finding the workspace's parts.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask/ has a parent").to_path_buf()
}

/// Runs `cargo ARGS` in the workspace root, echoing the command; fails if cargo does.
pub fn cargo(root: &Path, args: &[&str]) -> Result<()> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    println!("$ cargo {}", args.join(" "));
    let status =
        Command::new(cargo).current_dir(root).args(args).status().context("running cargo")?;
    if !status.success() {
        bail!("`cargo {}` failed ({status})", args.join(" "));
    }
    Ok(())
}

/// Runs a program, echoing the command; fails if it does.
pub fn sh(program: &str, args: &[&str]) -> Result<()> {
    println!("$ {program} {}", args.join(" "));
    let status =
        Command::new(program).args(args).status().with_context(|| format!("running {program}"))?;
    if !status.success() {
        bail!("`{program} {}` failed ({status})", args.join(" "));
    }
    Ok(())
}

/// Whether the program runs and exits with success.
pub fn works(program: &str, args: &[&str]) -> bool {
    Command::new(program).args(args).output().is_ok_and(|o| o.status.success())
}

/// Every chapter crate: its folder and its package name, in chapter order.
pub fn chapters(root: &Path) -> Result<Vec<(PathBuf, String)>> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("chapters"))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()?;
    dirs.sort();
    dirs.into_iter()
        .map(|dir| {
            let name = workspace_checks::outputs::package_name(&dir)?;
            Ok((dir, name))
        })
        .collect()
}

//! Running programs, echoing each command.

use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;

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

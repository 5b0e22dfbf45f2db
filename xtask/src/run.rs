//! Running programs, echoing each command.

use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;

/// Runs `cargo ARGS` in the workspace root, echoing the command; fails if cargo does.
pub fn cargo(root: &Path, args: &[&str]) -> Result<()> {
    cargo_with(root, args, &[])
}

/// [`cargo`] with environment variables set for it alone.
pub fn cargo_with(root: &Path, args: &[&str], env: &[(&str, &str)]) -> Result<()> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let shown: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v} ")).collect();
    println!("$ {}cargo {}", shown.concat(), args.join(" "));
    let status = Command::new(cargo)
        .current_dir(root)
        .args(args)
        .envs(env.iter().copied())
        .status()
        .context("running cargo")?;
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

/// Installs Debian packages with apt-get (through sudo unless running as root), after updating the
/// package lists; fails clearly where there is no apt-get.
pub fn apt_install(packages: &[&str]) -> Result<()> {
    if !works("apt-get", &["--version"]) {
        bail!("there is no apt-get to install {}", packages.join(" "));
    }
    let root_user = Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0"));
    let apt = |rest: &[&str]| -> Result<()> {
        if root_user {
            sh("apt-get", rest)
        } else {
            sh("sudo", &[&["apt-get"][..], rest].concat())
        }
    };
    apt(&["update", "-qq"])?;
    apt(&[&["install", "-y", "-qq", "--no-install-recommends"][..], packages].concat())
}

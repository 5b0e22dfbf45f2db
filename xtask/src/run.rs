//! Running programs, echoing each command.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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

/// `cargo ARGS` in the workspace root, left running in the background with its output going to
/// `target/LOG`; [`Background::finish`] waits for it and shows that output (cargo's `test
/// result:` lines with it). Dropped before that, it is stopped.
pub struct Background {
    child: Option<Child>,
    log: PathBuf,
    command: String,
    started: Instant,
}

impl Background {
    pub fn start(root: &Path, args: &[&str], log: &str) -> Result<Background> {
        let log = root.join("target").join(log);
        std::fs::create_dir_all(log.parent().expect("a folder"))?;
        let command = format!("cargo {}", args.join(" "));
        println!("$ {command} > {} &", log.strip_prefix(root).unwrap_or(&log).display());
        let out = std::fs::File::create(&log).with_context(|| format!("{}", log.display()))?;
        let child = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .current_dir(root)
            .args(args)
            .stdin(Stdio::null())
            .stdout(out.try_clone()?)
            .stderr(out)
            .spawn()
            .context("running cargo")?;
        Ok(Background { child: Some(child), log, command, started: Instant::now() })
    }

    /// Waits for the command, prints what it wrote, and fails if it did; returns how long it ran.
    pub fn finish(mut self) -> Result<Duration> {
        let status = self.child.take().expect("waited for once").wait().context("waiting")?;
        let ran = self.started.elapsed();
        let output = std::fs::read_to_string(&self.log).unwrap_or_default();
        println!("$ {} (ran for {ran:.1?}, beside the steps since it started)", self.command);
        print!("{output}");
        if !status.success() {
            bail!("`{}` failed ({status}); its output: {}", self.command, self.log.display());
        }
        Ok(ran)
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
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

//! Builds every chapter's test binaries (and support's) with `--features cuda` against the cached
//! toolkit, in a target folder of their own so that the CPU build is untouched.

use anyhow::{bail, Context, Result};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The timing programs the kit carries beside the tests (built with the same `test` profile, so
/// that they share its compiled dependencies): `(package, target kind, target, arguments)`.
pub const TIMINGS: [(&str, &str, &str, &[&str]); 4] = [
    ("ch01-attention", "example", "device_timing", &[]),
    ("ch08-efficient", "example", "gpu_timing", &[]),
    ("ch07-vit", "bench", "train_step", &["--bench"]),
    ("ch09-capstone", "bench", "train_step", &["--bench"]),
];

/// One executable cargo built.
pub struct Binary {
    /// the package, `ch09-capstone`
    pub package: String,
    /// `tests` (a chapter's integration tests), `lib` (its unit tests), or for a timing program
    /// its kind and name (`bench.train_step`)
    pub target: String,
    pub path: PathBuf,
    /// the package's folder relative to the workspace root, where cargo would run it
    pub dir: PathBuf,
    /// a timing program (run by `run.sh --timings`) rather than a test binary
    pub timing: bool,
    /// what the runner passes it
    pub args: Vec<String>,
}

impl Binary {
    /// The name the kit gives it: `ch09-capstone.tests`, `ch09-capstone.bench.train_step`.
    pub fn name(&self) -> String {
        format!("{}.{}", self.package, self.target)
    }
}

/// `cargo test --no-run` for support and every chapter with their `cuda` features, for GPUs of
/// compute capability `compute_cap` (90: H100 and H200), then the [`TIMINGS`] programs. Returns
/// the executables.
pub fn build(root: &Path, cuda: &Path, target_dir: &Path, compute_cap: u32) -> Result<Vec<Binary>> {
    let mut args = vec!["test".to_string(), "--no-run".into()];
    args.extend(crate::suite::cuda_packages(root, &[])?);
    let cargo = Cargo { root, cuda, target_dir, compute_cap };
    let mut binaries = cargo.run(&args, |message| {
        let kind = message["target"]["kind"][0].as_str();
        (message["profile"]["test"] == true).then(|| match kind {
            Some("test") => message["target"]["name"].as_str().unwrap_or("tests").to_string(),
            _ => "lib".to_string(),
        })
    })?;
    for (package, kind, name, run_args) in TIMINGS {
        let args: Vec<String> = ["build", "--profile", "test", "-p", package]
            .into_iter()
            .map(String::from)
            .chain([format!("--{kind}"), name.to_string()])
            .chain(["--features".to_string(), format!("{package}/cuda")])
            .collect();
        for mut binary in cargo.run(&args, |message| {
            let wanted = message["target"]["kind"][0] == kind && message["target"]["name"] == name;
            wanted.then(|| format!("{kind}.{name}"))
        })? {
            binary.timing = true;
            binary.args = run_args.iter().map(|a| a.to_string()).collect();
            binaries.push(binary);
        }
    }
    binaries.sort_by_key(Binary::name);
    Ok(binaries)
}

/// A cargo command against the cached toolkit, in the kit's own target folder.
struct Cargo<'a> {
    root: &'a Path,
    cuda: &'a Path,
    target_dir: &'a Path,
    compute_cap: u32,
}

impl Cargo<'_> {
    /// Runs `cargo ARGS --message-format=json-render-diagnostics`; `target` names each built
    /// executable the caller wants (or `None` to skip it).
    fn run(
        &self,
        args: &[String],
        target: impl Fn(&serde_json::Value) -> Option<String>,
    ) -> Result<Vec<Binary>> {
        let path = format!(
            "{}:{}",
            self.cuda.join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        println!("$ cargo {}", args.join(" "));
        let mut child = Command::new(workspace_tools::cargo_program())
            .current_dir(self.root)
            .args(args)
            .arg("--message-format=json-render-diagnostics")
            .env("CUDA_ROOT", self.cuda)
            .env("CUDA_COMPUTE_CAP", self.compute_cap.to_string())
            .env("PATH", path)
            .env("CARGO_TARGET_DIR", self.target_dir)
            // no debug info: the binaries travel to the GPU machine
            .env("CARGO_PROFILE_TEST_DEBUG", "false")
            .env("CARGO_PROFILE_DEV_DEBUG", "false")
            .stdout(Stdio::piped())
            .spawn()
            .context("running cargo")?;
        let mut binaries = Vec::new();
        for line in BufReader::new(child.stdout.take().context("cargo's stdout")?).lines() {
            let message: serde_json::Value = serde_json::from_str(&line?)?;
            if message["reason"] != "compiler-artifact" {
                continue;
            }
            let Some(path) = message["executable"].as_str() else { continue };
            let Some(target) = target(&message) else { continue };
            let package = package_name(message["package_id"].as_str().unwrap_or_default());
            let manifest = Path::new(message["manifest_path"].as_str().unwrap_or_default());
            let dir = manifest.parent().and_then(|d| d.strip_prefix(self.root).ok());
            binaries.push(Binary {
                package,
                target,
                path: path.into(),
                dir: dir.unwrap_or(Path::new("")).to_path_buf(),
                timing: false,
                args: Vec::new(),
            });
        }
        let status = child.wait()?;
        if !status.success() {
            bail!("the CUDA build failed ({status})");
        }
        Ok(binaries)
    }
}

/// `ch09-capstone` from a package id such as
/// `path+file:///…/chapters/09-capstone#ch09-capstone@0.1.0`, `path+file:///…/support#0.1.0`, or
/// the older `ch09-capstone 0.1.0 (path+file:///…)`.
fn package_name(id: &str) -> String {
    if let Some((url, rest)) = id.rsplit_once('#') {
        return match rest.split_once('@') {
            Some((name, _)) => name.to_string(),
            // `…/support#0.1.0`: the folder is the package's name
            None => url.rsplit('/').next().unwrap_or(url).to_string(),
        };
    }
    id.split(' ').next().unwrap_or(id).to_string()
}

#[cfg(test)]
mod tests {
    use super::package_name;

    #[test]
    fn package_names_from_both_id_forms() {
        assert_eq!(
            package_name("path+file:///r/chapters/09-capstone#ch09-capstone@0.1.0"),
            "ch09-capstone"
        );
        assert_eq!(package_name("path+file:///r/support#0.1.0"), "support");
        assert_eq!(package_name("support 0.1.0 (path+file:///r/support)"), "support");
    }
}

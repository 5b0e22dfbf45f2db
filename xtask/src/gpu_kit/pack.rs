//! Packs the built binaries, stripped and xz-compressed, with the data files they read, dfdx's
//! kernel headers (nvrtc compiles five of its kernels at run time) and the runner, into folders
//! that each fit one call of the device tool.

use super::build::Binary;
use super::toolkit::WHEELS;
use crate::run::sh;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use workspace_tools::files_under;

/// What the device tool carries in one call is at most 64 MiB; leave room for the runner's files.
pub const PART_LIMIT: u64 = 60 * 1024 * 1024;

/// The folders, relative to a chapter's crate, that its tests read at run time (through paths
/// built from `CARGO_MANIFEST_DIR`, which point into the repository).
const CHAPTER_DATA: [&str; 4] = ["fixtures", "weights", "measurements", "audio"];
/// The book's folders that tests compare with (figures) or read (chapter 9's explorer data).
const BOOK_DATA: [&str; 2] = ["book/src/figures", "book/src/explorer"];
/// Single files that tests read to check the numbers they quote: the README and the book's pages.
const TEXT_DATA: [&str; 1] = ["README.md"];

/// The runner, and PyTorch's side of the GPU timings: `(path in the repository, name in the kit)`.
const SCRIPTS: [(&str, &str); 3] = [
    ("xtask/gpu-kit/run.sh", "run.sh"),
    ("xtask/gpu-kit/runner.py", "runner.py"),
    ("chapters/08-efficient/compare/sdpa_gpu.py", "sdpa_gpu.py"),
];

/// Writes the kit into `out/kit` (and `out/kit-2`, … when the binaries do not fit one call).
/// Returns the part folders.
pub fn pack(
    root: &Path,
    out: &Path,
    binaries: &[Binary],
    compute_cap: u32,
) -> Result<Vec<PathBuf>> {
    if out.exists() {
        std::fs::remove_dir_all(out)?;
    }
    let first = out.join("kit");
    std::fs::create_dir_all(first.join("bin"))?;
    for (from, name) in SCRIPTS {
        let from = root.join(from);
        std::fs::copy(&from, first.join(name)).with_context(|| format!("{}", from.display()))?;
    }
    let data = copy_data(root, &first.join("data"))?;
    copy_headers(&root.join("vendor/dfdx/src"), &first.join("cuh"))?;

    let mut parts = vec![first.clone()];
    let mut used = folder_bytes(&first)?;
    let mut listed = Vec::new();
    for binary in binaries {
        let packed = compress(binary, &out.join("scratch"))?;
        let bytes = std::fs::metadata(&packed)?.len();
        if used + bytes > PART_LIMIT {
            let next = out.join(format!("kit-{}", parts.len() + 1));
            std::fs::create_dir_all(next.join("bin"))?;
            parts.push(next);
            used = 0;
        }
        let part = parts.last().unwrap();
        let file = format!("{}.xz", binary.name());
        std::fs::rename(&packed, part.join("bin").join(&file))?;
        used += bytes;
        let part_name = part.file_name().unwrap().to_string_lossy().into_owned();
        std::fs::create_dir_all(first.join("data").join(&binary.dir))?;
        listed.push(serde_json::json!({
            "name": binary.name(),
            "dir": binary.dir.to_str().context("package path is not UTF-8")?,
            "part": part_name,
            "file": file,
            "bytes": bytes,
            "timing": binary.timing,
            "args": binary.args,
        }));
    }
    std::fs::remove_dir_all(out.join("scratch"))?;
    let manifest = serde_json::json!({
        "built_root": root.to_str().context("workspace path is not UTF-8")?,
        "commit": commit(root),
        "compute_cap": compute_cap,
        "wheels": WHEELS,
        "data": data,
        "binaries": listed,
    });
    std::fs::write(first.join("kit.json"), serde_json::to_string_pretty(&manifest)? + "\n")?;
    Ok(parts)
}

/// A stripped, compressed copy of the binary in `scratch`.
fn compress(binary: &Binary, scratch: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(scratch)?;
    let copy = scratch.join(binary.name());
    std::fs::copy(&binary.path, &copy)?;
    let copy_str = copy.to_str().context("target path is not UTF-8")?;
    sh("strip", &["-s", copy_str])?;
    sh("xz", &["-6", "-T2", "-f", copy_str])?;
    Ok(scratch.join(format!("{}.xz", binary.name())))
}

/// Copies every existing data folder to `data/<its path in the repository>`; returns those paths.
fn copy_data(root: &Path, data: &Path) -> Result<Vec<String>> {
    let mut copied = Vec::new();
    let mut folders: Vec<String> = BOOK_DATA.iter().map(|s| s.to_string()).collect();
    for chapter in workspace_tools::Chapter::all(root)? {
        let dir = chapter.dir.strip_prefix(root)?.to_string_lossy().into_owned();
        folders.extend(CHAPTER_DATA.iter().map(|d| format!("{dir}/{d}")));
    }
    for rel in folders {
        if root.join(&rel).is_dir() {
            copy_tree(&root.join(&rel), &data.join(&rel))?;
            copied.push(rel);
        }
    }
    let pages = files_under(&root.join("book/src"))?;
    let pages = pages.iter().filter(|f| f.parent() == Some(&root.join("book/src")));
    let pages = pages.filter(|f| f.extension().is_some_and(|e| e == "md"));
    let mut files: Vec<String> = TEXT_DATA.iter().map(|s| s.to_string()).collect();
    files.extend(pages.map(|f| f.strip_prefix(root).unwrap().to_string_lossy().into_owned()));
    for rel in files {
        std::fs::create_dir_all(data.join(&rel).parent().unwrap())?;
        std::fs::copy(root.join(&rel), data.join(&rel)).with_context(|| rel.clone())?;
        copied.push(rel);
    }
    copied.sort();
    Ok(copied)
}

/// dfdx's `*.cuh` headers, flat in `cuh/` as its build script puts them in `OUT_DIR`.
fn copy_headers(src: &Path, cuh: &Path) -> Result<()> {
    std::fs::create_dir_all(cuh)?;
    for entry in files_under(src)? {
        if entry.extension().is_some_and(|e| e == "cuh") {
            std::fs::copy(&entry, cuh.join(entry.file_name().unwrap()))?;
        }
    }
    Ok(())
}

fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    for file in files_under(from)? {
        let target = to.join(file.strip_prefix(from)?);
        std::fs::create_dir_all(target.parent().unwrap())?;
        std::fs::copy(&file, &target)?;
    }
    Ok(())
}

fn folder_bytes(dir: &Path) -> Result<u64> {
    files_under(dir)?.iter().map(|f| Ok(std::fs::metadata(f)?.len())).sum()
}

fn commit(root: &Path) -> String {
    std::process::Command::new("git")
        .current_dir(root)
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

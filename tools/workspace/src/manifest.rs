//! What a `Cargo.toml` says: the package's name, its example programs, the workspace's members.
//! Read as text: the manifests of this workspace are plain enough that no TOML parser is needed.

use anyhow::{Context, Result};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The package name declared in `dir/Cargo.toml`.
pub fn package_name(dir: &Path) -> Result<String> {
    let manifest_path = dir.join("Cargo.toml");
    let manifest = std::fs::read_to_string(&manifest_path)
        .with_context(|| format!("reading {}", manifest_path.display()))?;
    manifest
        .lines()
        .find_map(|l| l.strip_prefix("name = ").map(|n| n.trim().trim_matches('"').to_string()))
        .with_context(|| format!("no package name in {}", manifest_path.display()))
}

/// The example programs of the crate in `dir`, as cargo finds them: `examples/NAME.rs`,
/// `examples/NAME/main.rs`, and the `name` of each `[[example]]` table in its `Cargo.toml`.
pub fn examples(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if let Ok(entries) = std::fs::read_dir(dir.join("examples")) {
        for p in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            let name = p.file_stem().unwrap_or_default().to_string_lossy().to_string();
            if p.extension().is_some_and(|e| e == "rs") || p.join("main.rs").is_file() {
                out.insert(name);
            }
        }
    }
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
    for table in manifest.split("[[example]]").skip(1) {
        let body = table.split("\n[").next().unwrap_or("");
        if let Some(name) = body.lines().find_map(|l| {
            let (key, value) = l.split_once('=')?;
            (key.trim() == "name").then(|| value.trim().trim_matches('"').to_string())
        }) {
            out.insert(name);
        }
    }
    out
}

/// The folders of the workspace's members: the `members` of the top-level `Cargo.toml`, with
/// `dir/*` globs expanded to the folders below `dir` that hold a `Cargo.toml`.
pub fn member_dirs(root: &Path) -> Result<Vec<PathBuf>> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml"))
        .with_context(|| format!("reading {}", root.join("Cargo.toml").display()))?;
    let without_comments: String =
        manifest.lines().map(|l| l.split('#').next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    let members = without_comments
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .context("the top-level Cargo.toml has no `members = [...]`")?
        .0;
    let mut dirs = Vec::new();
    for member in members.split('"').skip(1).step_by(2) {
        match member.strip_suffix("/*") {
            Some(parent) => {
                let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(parent))
                    .with_context(|| format!("reading {parent}/"))?
                    .map(|e| e.map(|e| e.path()))
                    .collect::<std::io::Result<_>>()?;
                found.retain(|dir| dir.join("Cargo.toml").is_file());
                found.sort();
                dirs.extend(found);
            }
            None => dirs.push(root.join(member)),
        }
    }
    Ok(dirs)
}

/// Every package of the workspace, by name, with its example names.
pub fn packages(root: &Path) -> Result<BTreeMap<String, BTreeSet<String>>> {
    member_dirs(root)?.iter().map(|dir| Ok((package_name(dir)?, examples(dir)))).collect()
}

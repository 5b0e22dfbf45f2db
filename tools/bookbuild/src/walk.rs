//! Directory walking shared by the source and output checks.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// Appends every file under `dir` to `out`, recursively, sorted by name within each folder.
pub(crate) fn all_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .collect::<std::io::Result<_>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        if path.is_dir() {
            all_files(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

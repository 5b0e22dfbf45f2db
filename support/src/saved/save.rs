//! Saving a training run so that a run stopped at any point (an error, a panic, a kill, a power
//! cut) leaves either the old pair of files or the new pair, never one of each, and no truncated
//! file.
//!
//! The weights and the report are saved in four steps, in the report's folder (`NAME` is the
//! report's file name):
//!
//! 1. both files are written whole into a new staging folder `.NAME.pair-PID/` and synced to disk;
//! 2. the staging folder is renamed `.NAME.pair/`: one atomic rename, the point after which the
//!    new pair is the saved one;
//! 3. each file is moved out of it over the old one;
//! 4. the empty `.NAME.pair/` is removed.
//!
//! Stopped before step 2, a save leaves the old pair as it was, and a staging folder that nothing
//! reads; the next save removes it once its process is gone. Stopped after step 2, it leaves
//! `.NAME.pair/` holding what is still to move: [`finish_interrupted_save`] moves it, and every
//! load of a committed run ([`Committed`](super::Committed)) and every save calls it first, so a
//! reader only ever sees the new pair. One save of a pair at a time: the training examples never
//! run two.
//!
//! A single JSON file ([`save_json`]) needs no pair folder: it is written to `.NAME.tmp-PID` and
//! renamed over the old one.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::SaveError;

/// Writes the weights (with `write_weights`, given the path to write) to `weights` and `report` as
/// pretty-printed JSON to `report_path`, both or neither (see the module's documentation). A
/// failure before the pair is complete on disk (the report does not serialise, the writer fails,
/// the disk is full) returns an error and leaves the pair already there unchanged, with nothing
/// else beside it.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("save-pair-doc-{}", std::process::id()));
/// let (weights, report) = (dir.join("model.bin"), dir.join("model.json"));
/// support::saved::save_pair(&weights, |p| std::fs::write(p, [1u8, 2]), &report, &[0.5f32])
///     .unwrap();
/// assert_eq!(std::fs::read(&weights).unwrap(), [1, 2]);
/// assert_eq!(std::fs::read_to_string(&report).unwrap(), "[\n  0.5\n]\n");
/// # std::fs::remove_dir_all(dir).unwrap();
/// ```
pub fn save_pair<E: std::fmt::Debug, R: Serialize + ?Sized>(
    weights: impl AsRef<Path>,
    write_weights: impl FnOnce(&Path) -> Result<(), E>,
    report_path: impl AsRef<Path>,
    report: &R,
) -> Result<(), SaveError> {
    let (weights, report_path) = (weights.as_ref(), report_path.as_ref());
    let json = to_json(report_path, report)?;
    finish_interrupted_save(weights, report_path)?;
    let write_error =
        |detail: String| SaveError::Write { path: weights.display().to_string(), detail };
    for path in [weights, report_path] {
        create_folder(path).map_err(write_error)?;
    }
    let pending = pending_folder(report_path);
    remove_stale(&pending);
    let staged = Staged::new(staging_name(&pending));
    std::fs::create_dir(&staged.tmp).map_err(|e| write_error(e.to_string()))?;
    write_weights(&staged.tmp.join(WEIGHTS))
        .map_err(|e| format!("{e:?}"))
        .and_then(|()| sync(&staged.tmp.join(WEIGHTS)))
        .map_err(write_error)?;
    write_synced(&staged.tmp.join(REPORT), json.as_bytes())
        .map_err(|detail| SaveError::Write { path: report_path.display().to_string(), detail })?;
    sync_folder(&staged.tmp.join(REPORT));
    staged.rename_to(&pending).map_err(write_error)?;
    sync_folder(report_path);
    finish_interrupted_save(weights, report_path)?;
    Ok(())
}

/// Finishes a save of the pair `weights`, `report_path` that was stopped after the new pair was
/// complete on disk (a `.NAME.pair/` folder beside the report): moves what it still holds into
/// place and removes it. Returns whether there was one; with none, it only looks.
pub fn finish_interrupted_save(
    weights: impl AsRef<Path>,
    report_path: impl AsRef<Path>,
) -> Result<bool, SaveError> {
    let (weights, report_path) = (weights.as_ref(), report_path.as_ref());
    let pending = pending_folder(report_path);
    if !pending.is_dir() {
        return Ok(false);
    }
    let unfinished = |path: &Path, detail: String| SaveError::Unfinished {
        pending: pending.display().to_string(),
        path: path.display().to_string(),
        detail,
    };
    for (name, target) in [(WEIGHTS, weights), (REPORT, report_path)] {
        let from = pending.join(name);
        // a file already moved, here or by another process finishing the same save, is done
        if from.exists() {
            if let Err(e) = std::fs::rename(&from, target) {
                if from.exists() {
                    return Err(unfinished(target, e.to_string()));
                }
            }
        }
    }
    sync_folder(weights);
    sync_folder(report_path);
    match std::fs::remove_dir(&pending) {
        Err(e) if pending.exists() => Err(unfinished(&pending, e.to_string())),
        _ => Ok(true),
    }
}

/// `value` as pretty-printed JSON, with a line feed at the end, written to `path` whole or not at
/// all (through `.NAME.tmp-PID`, renamed over the old file).
pub fn save_json<R: Serialize + ?Sized>(
    path: impl AsRef<Path>,
    value: &R,
) -> Result<(), SaveError> {
    let path = path.as_ref();
    save_bytes(path, to_json(path, value)?.as_bytes())
}

/// `bytes` written to `path` whole or not at all (through `.NAME.tmp-PID`, renamed over the old
/// file): a reader of `path` never sees half of it, even while another process writes it.
pub fn save_bytes(path: impl AsRef<Path>, bytes: &[u8]) -> Result<(), SaveError> {
    let path = path.as_ref();
    let write_error =
        |detail: String| SaveError::Write { path: path.display().to_string(), detail };
    create_folder(path).map_err(write_error)?;
    let temporary = hidden(path, ".tmp");
    remove_stale(&temporary);
    let staged = Staged::new(staging_name(&temporary));
    write_synced(&staged.tmp, bytes).map_err(write_error)?;
    staged.rename_to(path).map_err(write_error)?;
    sync_folder(path);
    Ok(())
}

/// The names of the two files inside a pair folder.
const WEIGHTS: &str = "weights";
const REPORT: &str = "report";

/// `.NAME.pair` beside the report `NAME`: the new pair, complete, while it is moved into place.
fn pending_folder(report_path: &Path) -> PathBuf {
    hidden(report_path, ".pair")
}

/// `.NAME<suffix>` beside `path`.
fn hidden(path: &Path, suffix: &str) -> PathBuf {
    let name = path.file_name().unwrap_or(path.as_os_str()).to_string_lossy();
    path.with_file_name(format!(".{name}{suffix}"))
}

/// `base-PID`: where this process stages what becomes `base`.
fn staging_name(base: &Path) -> PathBuf {
    let mut name = base.as_os_str().to_owned();
    name.push(format!("-{}", std::process::id()));
    PathBuf::from(name)
}

/// Removes what saves of `base` by processes that are gone left behind (`base-PID`, a file or a
/// folder): a save that was killed before it was complete.
fn remove_stale(base: &Path) {
    let (Some(folder), Some(prefix)) = (base.parent(), base.file_name()) else { return };
    let prefix = format!("{}-", prefix.to_string_lossy());
    let folder = if folder.as_os_str().is_empty() { Path::new(".") } else { folder };
    let Ok(entries) = std::fs::read_dir(folder) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let pid = name.strip_prefix(&prefix).and_then(|pid| pid.parse::<u32>().ok());
        if pid.is_some_and(|pid| !running(pid)) {
            let path = entry.path();
            let _ = if path.is_dir() {
                std::fs::remove_dir_all(&path)
            } else {
                std::fs::remove_file(&path)
            };
        }
    }
}

/// Whether the process `pid` may still be saving. Only Linux says (`/proc/PID`); elsewhere every
/// process may be, and a leftover stays (nothing reads it).
fn running(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    #[cfg(target_os = "linux")]
    return Path::new("/proc").join(pid.to_string()).exists();
    #[cfg(not(target_os = "linux"))]
    true
}

/// `value` as the training examples have always written their reports: `serde_json`'s pretty
/// printing and one line feed.
fn to_json<R: Serialize + ?Sized>(path: &Path, value: &R) -> Result<String, SaveError> {
    let json = serde_json::to_string_pretty(value).map_err(|e| SaveError::Serialize {
        path: path.display().to_string(),
        detail: e.to_string(),
    })?;
    Ok(json + "\n")
}

/// A file or folder at a temporary path, removed when dropped unless renamed into place: a
/// failure (or a panic) anywhere before the rename leaves nothing behind.
struct Staged {
    tmp: PathBuf,
    renamed: bool,
}

impl Staged {
    fn new(tmp: PathBuf) -> Staged {
        Staged { tmp, renamed: false }
    }

    /// Moves it to `target` (atomically, on one file system).
    fn rename_to(mut self, target: &Path) -> Result<(), String> {
        std::fs::rename(&self.tmp, target).map_err(|e| e.to_string())?;
        self.renamed = true;
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.renamed {
            // it may not exist (the writer failed before creating it): nothing to report
            let _ = if self.tmp.is_dir() {
                std::fs::remove_dir_all(&self.tmp)
            } else {
                std::fs::remove_file(&self.tmp)
            };
        }
    }
}

/// Creates the folder `path` goes into, if it has one.
fn create_folder(path: &Path) -> Result<(), String> {
    match path.parent().filter(|f| !f.as_os_str().is_empty()) {
        Some(folder) => std::fs::create_dir_all(folder).map_err(|e| e.to_string()),
        None => Ok(()),
    }
}

fn write_synced(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut file = File::create(path).map_err(|e| e.to_string())?;
    file.write_all(bytes).and_then(|()| file.sync_all()).map_err(|e| e.to_string())
}

/// Flushes what a writer closed without syncing (dfdx's `save_safetensors` does not sync).
fn sync(path: &Path) -> Result<(), String> {
    let file = OpenOptions::new().write(true).open(path).map_err(|e| e.to_string())?;
    file.sync_all().map_err(|e| e.to_string())
}

/// Makes the renames in `path`'s folder durable (on Unix a rename is recorded in the folder). A
/// folder that cannot be synced only weakens that against a power cut, and is not an error.
fn sync_folder(path: &Path) {
    #[cfg(unix)]
    if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
        let _ = File::open(folder).and_then(|f| f.sync_all());
    }
    #[cfg(not(unix))]
    let _ = path;
}

#[cfg(test)]
mod tests;

//! Saving a training run so that a run stopped part-way never leaves a truncated file or a report
//! of another run beside the weights: every file is written whole to a temporary sibling in the
//! same folder (`NAME.tmp-PID`), synced to disk, and only then renamed over the old one.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::SaveError;

/// Writes the weights (with `write_weights`, given the temporary path to write) to `weights` and
/// `report` as pretty-printed JSON to `report_path`. Both are written in full and synced before
/// either is renamed into place, so a failure before the renames (the report does not serialise,
/// the writer fails, the disk is full) leaves the pair already there unchanged; temporary files
/// are removed on every failure.
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
    let weights_tmp = Staged::write(weights, |tmp| {
        write_weights(tmp).map_err(|e| format!("{e:?}"))?;
        sync(tmp)
    })?;
    let report_tmp = Staged::write(report_path, |tmp| write_synced(tmp, json.as_bytes()))?;
    weights_tmp.rename()?;
    report_tmp.rename().map_err(|e| match e {
        SaveError::Write { path, detail } => {
            SaveError::Torn { path, replaced: weights.display().to_string(), detail }
        }
        other => other,
    })?;
    sync_folder(weights);
    sync_folder(report_path);
    Ok(())
}

/// `value` as pretty-printed JSON, with a line feed at the end, written to `path` the same way:
/// whole or not at all.
pub fn save_json<R: Serialize + ?Sized>(
    path: impl AsRef<Path>,
    value: &R,
) -> Result<(), SaveError> {
    let path = path.as_ref();
    let json = to_json(path, value)?;
    Staged::write(path, |tmp| write_synced(tmp, json.as_bytes()))?.rename()?;
    sync_folder(path);
    Ok(())
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

/// A complete file at a temporary path beside `target`, removed when dropped unless renamed into
/// place: a failure (or a panic) anywhere before the rename leaves nothing behind.
struct Staged {
    tmp: PathBuf,
    target: PathBuf,
    renamed: bool,
}

impl Staged {
    /// Writes the temporary sibling of `target` with `write`, creating `target`'s folder first.
    fn write(
        target: &Path,
        write: impl FnOnce(&Path) -> Result<(), String>,
    ) -> Result<Staged, SaveError> {
        let mut name = target.file_name().unwrap_or(target.as_os_str()).to_owned();
        name.push(format!(".tmp-{}", std::process::id()));
        let staged =
            Staged { tmp: target.with_file_name(name), target: target.into(), renamed: false };
        if let Some(folder) = target.parent().filter(|f| !f.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder).map_err(|e| staged.failed(e.to_string()))?;
        }
        write(&staged.tmp).map_err(|detail| staged.failed(detail))?;
        Ok(staged)
    }

    /// Moves the file into place (atomically, on one file system).
    fn rename(mut self) -> Result<(), SaveError> {
        std::fs::rename(&self.tmp, &self.target).map_err(|e| self.failed(e.to_string()))?;
        self.renamed = true;
        Ok(())
    }

    fn failed(&self, detail: String) -> SaveError {
        SaveError::Write { path: self.target.display().to_string(), detail }
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.renamed {
            // it may not exist (the writer failed before creating it): nothing to report
            let _ = std::fs::remove_file(&self.tmp);
        }
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

/// Makes the renames themselves durable (on Unix a rename is recorded in the folder). The files
/// are in place by then: a folder that cannot be synced only weakens that, and is not an error.
fn sync_folder(path: &Path) {
    #[cfg(unix)]
    if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
        let _ = File::open(folder).and_then(|f| f.sync_all());
    }
    #[cfg(not(unix))]
    let _ = path;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder holding an old pair (`model.bin`, `model.json`).
    fn old_pair(test: &str) -> (PathBuf, PathBuf, PathBuf) {
        let dir = std::env::temp_dir().join(format!("support-save-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (weights, report) = (dir.join("model.bin"), dir.join("model.json"));
        std::fs::write(&weights, b"old weights").unwrap();
        std::fs::write(&report, b"{\"old\": true}\n").unwrap();
        (dir, weights, report)
    }

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn assert_old_pair_intact(dir: &Path, weights: &Path, report: &Path) {
        assert_eq!(std::fs::read(weights).unwrap(), b"old weights");
        assert_eq!(std::fs::read(report).unwrap(), b"{\"old\": true}\n");
        assert_eq!(names(dir), ["model.bin", "model.json"], "no temporary file left behind");
    }

    /// A report whose serialisation fails.
    struct Unserialisable;

    impl Serialize for Unserialisable {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("no JSON for this"))
        }
    }

    #[test]
    fn a_writer_failing_half_way_leaves_the_old_pair() {
        let (dir, weights, report) = old_pair("writer");
        let e = save_pair(
            &weights,
            |tmp| {
                std::fs::write(tmp, b"half of the new wei").unwrap();
                Err("disk full")
            },
            &report,
            &vec![1.0f32; 3],
        )
        .unwrap_err();
        assert!(matches!(e, SaveError::Write { .. }), "{e}");
        assert!(e.to_string().contains("model.bin (\"disk full\")"), "{e}");
        assert!(e.to_string().contains("unchanged"), "{e}");
        assert_old_pair_intact(&dir, &weights, &report);
    }

    #[test]
    fn a_report_that_does_not_serialise_leaves_the_old_pair() {
        let (dir, weights, report) = old_pair("report");
        let mut wrote = false;
        let e = save_pair(
            &weights,
            |tmp| {
                wrote = true;
                std::fs::write(tmp, b"new weights")
            },
            &report,
            &Unserialisable,
        )
        .unwrap_err();
        assert!(matches!(e, SaveError::Serialize { .. }), "{e}");
        assert!(e.to_string().contains("model.json does not serialise as JSON (no JSON for this)"));
        assert!(!wrote, "the report is serialised before any file is written");
        assert_old_pair_intact(&dir, &weights, &report);

        let e = save_json(&report, &Unserialisable).unwrap_err();
        assert!(matches!(e, SaveError::Serialize { .. }), "{e}");
        assert_old_pair_intact(&dir, &weights, &report);
    }

    #[test]
    fn a_report_that_cannot_be_written_leaves_the_old_pair() {
        let (dir, weights, report) = old_pair("unwritable");
        // a folder where the report's temporary file should go: creating the file fails
        let blocker = dir.join(format!("model.json.tmp-{}", std::process::id()));
        std::fs::create_dir(&blocker).unwrap();
        let e = save_pair(&weights, |tmp| std::fs::write(tmp, b"new weights"), &report, &[1])
            .unwrap_err();
        assert!(matches!(e, SaveError::Write { .. }), "{e}");
        assert!(e.to_string().contains("model.json"), "{e}");
        std::fs::remove_dir(&blocker).unwrap();
        assert_old_pair_intact(&dir, &weights, &report);
    }

    #[test]
    fn a_panicking_writer_leaves_no_temporary_file() {
        let (dir, weights, report) = old_pair("panic");
        let saved = std::panic::catch_unwind(|| {
            save_pair(
                &weights,
                |tmp| -> Result<(), String> {
                    std::fs::write(tmp, b"half").unwrap();
                    panic!("killed mid-write")
                },
                &report,
                &[1],
            )
        });
        assert!(saved.is_err());
        assert_old_pair_intact(&dir, &weights, &report);
    }

    #[test]
    fn a_successful_save_replaces_both() {
        let (dir, weights, report) = old_pair("success");
        save_pair(&weights, |tmp| std::fs::write(tmp, b"new weights"), &report, &[0.1f32, 2.5])
            .unwrap();
        assert_eq!(std::fs::read(&weights).unwrap(), b"new weights");
        assert_eq!(std::fs::read_to_string(&report).unwrap(), "[\n  0.1,\n  2.5\n]\n");
        assert_eq!(names(&dir), ["model.bin", "model.json"]);

        save_json(&report, &["one"]).unwrap();
        assert_eq!(std::fs::read_to_string(&report).unwrap(), "[\n  \"one\"\n]\n");
        assert_eq!(names(&dir), ["model.bin", "model.json"]);
    }

    #[test]
    fn a_missing_folder_is_created() {
        let (dir, _, _) = old_pair("folder");
        let (weights, report) = (dir.join("new/model.bin"), dir.join("new/model.json"));
        save_pair(&weights, |tmp| std::fs::write(tmp, b"w"), &report, &1).unwrap();
        assert_eq!(names(&dir.join("new")), ["model.bin", "model.json"]);
    }
}

//! Reading back what a training example saved beside its crate (`weights/`): every failure is a
//! [`LoadError`] that names the file and the command that writes it.

use std::path::Path;

use serde::de::DeserializeOwned;

use crate::error::LoadError;

/// Loads weights from the file at `path` with `load` (for dfdx, `|p| model.load_safetensors(p)`).
pub fn load_weights<E: std::fmt::Debug>(
    path: impl AsRef<Path>,
    remedy: &'static str,
    load: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<(), LoadError> {
    let path = path.as_ref();
    let shown = path.display().to_string();
    if !path.exists() {
        return Err(LoadError::Missing { path: shown, remedy });
    }
    load(path).map_err(|e| LoadError::Mismatch {
        path: shown,
        expected: "this model's weights",
        detail: format!("{e:?}"),
        remedy,
    })
}

/// The JSON file at `path` read as a `T` (`expected` says what it should hold, for the error).
pub fn read_json<T: DeserializeOwned>(
    path: impl AsRef<Path>,
    expected: &'static str,
    remedy: &'static str,
) -> Result<T, LoadError> {
    let path = path.as_ref();
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|_| LoadError::Missing { path: shown.clone(), remedy })?;
    serde_json::from_str(&text).map_err(|e| LoadError::Mismatch {
        path: shown,
        expected,
        detail: e.to_string(),
        remedy,
    })
}

/// Every `*.json` file of the folder `dir` read as a `T`, with its name without `.json`, sorted by
/// name (a chapter's committed measurements, one file per machine).
pub fn read_json_folder<T: DeserializeOwned>(
    dir: impl AsRef<Path>,
    expected: &'static str,
    remedy: &'static str,
) -> Result<Vec<(String, T)>, LoadError> {
    let dir = dir.as_ref();
    let entries = std::fs::read_dir(dir)
        .map_err(|_| LoadError::Missing { path: dir.display().to_string(), remedy })?;
    let mut paths: Vec<_> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let name = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
            Ok((name, read_json(&path, expected, remedy)?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_name_the_file_and_the_remedy() {
        let dir = std::env::temp_dir().join(format!("support-saved-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = read_json::<Vec<u8>>(dir.join("none.json"), "a list", "make it").unwrap_err();
        assert!(matches!(missing, LoadError::Missing { .. }));
        assert!(missing.to_string().ends_with("none.json: no such file; `make it` writes it"));

        let bad = dir.join("bad.json");
        std::fs::write(&bad, "{").unwrap();
        let e = read_json::<Vec<u8>>(&bad, "a list", "make it").unwrap_err();
        assert!(e.to_string().contains("bad.json does not hold a list ("), "{e}");
        let e = load_weights(&bad, "make it", |_| Err("too short")).unwrap_err();
        assert!(e.to_string().contains("this model's weights (\"too short\")"), "{e}");
        std::fs::write(&bad, "[1, 2]").unwrap();
        assert_eq!(read_json::<Vec<u8>>(&bad, "a list", "make it").unwrap(), vec![1, 2]);
    }

    #[test]
    fn a_folder_of_json_files_reads_by_name_in_order() {
        let dir = std::env::temp_dir().join(format!("support-folder-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let missing = read_json_folder::<u8>(&dir, "a number", "make it").unwrap_err();
        assert!(missing.to_string().ends_with("no such file; `make it` writes it"), "{missing}");
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in [("b.json", "2"), ("a.json", "1"), ("notes.md", "not JSON")] {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let read = read_json_folder::<u8>(&dir, "a number", "make it").unwrap();
        assert_eq!(read, [("a".to_string(), 1), ("b".to_string(), 2)]);
        std::fs::write(dir.join("c.json"), "[").unwrap();
        let bad = read_json_folder::<u8>(&dir, "a number", "make it").unwrap_err();
        assert!(bad.to_string().contains("c.json does not hold a number ("), "{bad}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

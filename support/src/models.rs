//! Where the published models the book runs are kept: the workspace cache that `cargo xtask
//! models` fills (by pinned package version and sha256). The chapters never download anything; a
//! missing file is an error that names the command.

use std::path::{Path, PathBuf};

/// `$XDG_CACHE_HOME/attention-in-rust/models/<id>/` (or `~/.cache/...`): one folder per model.
pub fn folder(id: &str) -> PathBuf {
    let cache = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache")
    });
    cache.join("attention-in-rust/models").join(id)
}

/// The one-line message for a model file that could not be read: where it was looked for, why
/// not, and the command that fetches it (`size`: how much that downloads, e.g. "98 MB").
pub fn missing(path: &Path, error: impl std::fmt::Display, size: &str) -> String {
    format!("{}: {error}; `cargo xtask models` fetches it ({size}, once)", path.display())
}

/// A model's folder in the cache, checked to hold the files a chapter reads from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelFolder {
    pub dir: PathBuf,
}

impl ModelFolder {
    /// The cache's folder of model `id` ([`folder`]), if every one of `files` is in it;
    /// otherwise the one-line message ([`missing`]) for the first that is not (`size`: what
    /// `cargo xtask models` downloads for it).
    pub fn locate(id: &str, files: &[&str], size: &str) -> Result<Self, String> {
        Self::in_dir(folder(id), files, size)
    }

    /// The same check for another folder (a copy of the model elsewhere).
    pub fn in_dir(dir: impl Into<PathBuf>, files: &[&str], size: &str) -> Result<Self, String> {
        let found = ModelFolder { dir: dir.into() };
        for name in files {
            let path = found.path(name);
            std::fs::metadata(&path).map_err(|e| missing(&path, e, size))?;
        }
        Ok(found)
    }

    /// The path of `name` in the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// A file's text, or `path: why`.
    pub fn read_text(&self, name: &str) -> Result<String, String> {
        let path = self.path(name);
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_the_path_and_the_command() {
        let m = missing(Path::new("/x/model.bin"), "No such file", "5 MB");
        assert_eq!(m, "/x/model.bin: No such file; `cargo xtask models` fetches it (5 MB, once)");
        assert!(folder("m").ends_with("attention-in-rust/models/m"));
    }

    #[test]
    fn a_folder_without_a_file_names_it() {
        let dir = std::env::temp_dir().join("support-models-folder-check");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.txt"), "x").unwrap();
        let found = ModelFolder::in_dir(&dir, &["a.txt"], "1 MB").unwrap();
        assert_eq!(found.read_text("a.txt").unwrap(), "x");
        let e = ModelFolder::in_dir(&dir, &["a.txt", "b.bin"], "1 MB").unwrap_err();
        assert!(e.starts_with(&format!("{}: ", dir.join("b.bin").display())), "{e}");
        assert!(e.ends_with("`cargo xtask models` fetches it (1 MB, once)"), "{e}");
    }
}

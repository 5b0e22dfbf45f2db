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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_the_path_and_the_command() {
        let m = missing(Path::new("/x/model.bin"), "No such file", "5 MB");
        assert_eq!(m, "/x/model.bin: No such file; `cargo xtask models` fetches it (5 MB, once)");
        assert!(folder("m").ends_with("attention-in-rust/models/m"));
    }
}

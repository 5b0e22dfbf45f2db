//! The model's folder: `model.safetensors`, `config.json`, `vocab.txt` and sentence-transformers'
//! three small files, in the workspace cache that `cargo xtask models` fills. This chapter never
//! downloads anything; a missing file is an error that names the command.

use std::path::{Path, PathBuf};

use support::models::ModelFolder;

/// The folder's name in the cache (`cargo xtask models` uses the same).
pub const MODEL_ID: &str = "all-minilm-l6-v2";

/// What `cargo xtask models` downloads for it.
const SIZE: &str = "84 MB";

/// The files this chapter reads, relative to the folder.
pub const FILES: [&str; 6] = [
    "model.safetensors",
    "config.json",
    "vocab.txt",
    "sentence_bert_config.json",
    "1_Pooling/config.json",
    "modules.json",
];

/// Where the model's files are: the cache's folder ([`ModelFolder`]), checked to hold [`FILES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelFiles(pub ModelFolder);

impl std::ops::Deref for ModelFiles {
    type Target = ModelFolder;

    fn deref(&self) -> &ModelFolder {
        &self.0
    }
}

impl ModelFiles {
    /// The cache's folder for all-MiniLM-L6-v2, if every file the chapter reads is in it; otherwise
    /// a one-line message naming the first missing file and `cargo xtask models`.
    pub fn locate() -> Result<Self, String> {
        ModelFolder::locate(MODEL_ID, &FILES, SIZE).map(ModelFiles)
    }

    /// The same check for another folder (a copy of the model elsewhere).
    pub fn in_dir(dir: impl Into<PathBuf>) -> Result<Self, String> {
        ModelFolder::in_dir(dir, &FILES, SIZE).map(ModelFiles)
    }

    /// For the examples: the files, or the message on stderr and exit status 2.
    pub fn locate_or_exit() -> Self {
        support::cli::or_exit(Self::locate())
    }
}

/// A file's text, or `path: why`.
pub fn read_text(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

//! The model's folder: `model.bin`, `config.json`, `tokenizer.json` and `vocabulary.txt`, in the
//! workspace cache that `cargo xtask models` fills. This chapter never downloads anything; a
//! missing file is an error that names the command.

use std::path::PathBuf;

use support::models::ModelFolder;

/// The folder's name in the cache (`cargo xtask models` uses the same).
pub const MODEL_ID: &str = "whisper-tiny-en";

/// The files this chapter reads, relative to the folder.
pub const FILES: [&str; 4] = ["model.bin", "config.json", "tokenizer.json", "vocabulary.txt"];

/// What `cargo xtask models` downloads for it.
const SIZE: &str = "71 MB";

/// Where the model's files are: the cache's folder, checked to hold [`FILES`].
pub type ModelFiles = ModelFolder;

/// The cache's folder for Whisper tiny.en, if every file the chapter reads is in it; otherwise a
/// one-line message naming the first missing file and `cargo xtask models`.
pub fn locate() -> Result<ModelFiles, String> {
    ModelFolder::locate(MODEL_ID, &FILES, SIZE)
}

/// The same check for another folder (a copy of the model elsewhere).
pub fn in_dir(dir: impl Into<PathBuf>) -> Result<ModelFiles, String> {
    ModelFolder::in_dir(dir, &FILES, SIZE)
}

/// For the examples: the files, or the message on stderr and exit status 2.
pub fn locate_or_exit() -> ModelFiles {
    support::cli::or_exit(locate())
}

//! The model's folder: `model.bin`, `config.json`, `tokenizer.json` and `vocabulary.txt`, in the
//! workspace cache that `cargo xtask models` fills. This chapter never downloads anything; a
//! missing file is an error that names the command.

use std::path::PathBuf;

/// The folder's name in the cache (`cargo xtask models` uses the same).
pub const MODEL_ID: &str = "whisper-tiny-en";

/// The files this chapter reads, relative to the folder.
pub const FILES: [&str; 4] = ["model.bin", "config.json", "tokenizer.json", "vocabulary.txt"];

/// Where the model's files are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelFiles {
    pub dir: PathBuf,
}

impl ModelFiles {
    /// The cache's folder for Whisper tiny.en, if every file the chapter reads is in it;
    /// otherwise a one-line message naming the first missing file and `cargo xtask models`.
    pub fn locate() -> Result<Self, String> {
        Self::in_dir(support::models::folder(MODEL_ID))
    }

    /// The same check for another folder (a copy of the model elsewhere).
    pub fn in_dir(dir: impl Into<PathBuf>) -> Result<Self, String> {
        let files = ModelFiles { dir: dir.into() };
        for name in FILES {
            let path = files.path(name);
            std::fs::metadata(&path).map_err(|e| support::models::missing(&path, e, "71 MB"))?;
        }
        Ok(files)
    }

    /// The path of `name` in the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// A file's text, or a message naming it.
    pub fn read_text(&self, name: &str) -> Result<String, String> {
        let path = self.path(name);
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// For the examples: the files, or the message on stderr and exit status 2.
    pub fn locate_or_exit() -> Self {
        support::cli::or_exit(Self::locate())
    }
}

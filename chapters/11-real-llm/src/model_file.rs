//! Where the model file is: in the workspace cache, put there by `cargo xtask models`. This
//! chapter never downloads anything; a missing file is an error that names the command.

use std::path::PathBuf;

/// The file's name in its folder.
pub const FILE_NAME: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";

/// `$XDG_CACHE_HOME/attention-in-rust/models/smollm2-135m-instruct/` (or `~/.cache/...`), the
/// folder `cargo xtask models` fills.
pub fn path() -> PathBuf {
    support::models::folder("smollm2-135m-instruct").join(FILE_NAME)
}

/// The model file's bytes, or a message that says where it was looked for and which command
/// fetches it.
pub fn read() -> Result<Vec<u8>, String> {
    let path = path();
    std::fs::read(&path).map_err(|e| support::models::missing(&path, e, "98 MB"))
}

/// For the examples: the parsed file, or its error on stderr and exit status 2.
pub fn open_or_exit() -> crate::gguf::Gguf {
    let parsed =
        read().and_then(|bytes| crate::gguf::Gguf::parse(bytes).map_err(|e| e.to_string()));
    support::cli::or_exit(parsed)
}

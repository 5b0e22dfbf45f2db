//! "Ask the book" on every page: the book's index (every paragraph embedded natively, by chapter
//! 12's `web_index` example) and all-MiniLM-L6-v2's files, published under [`ASK`] beside the
//! WebAssembly module when the model is in the cache (`cargo xtask models`). Nothing is
//! committed; without the model the folder is removed and the page says how to get it.

use crate::run::cargo;
use anyhow::Result;
use std::path::Path;
use workspace_tools::models::{models_dir, Status, MODELS};

/// Where the page finds the index and the model's files (git-ignored).
pub const ASK: &str = "book/src/web/ask";
/// The model the question is embedded with.
const MODEL: &str = "all-minilm-l6-v2";

/// Publishes the index and the model's files, or removes a stale copy when the model is absent.
pub fn publish(root: &Path) -> Result<()> {
    let model = MODELS.iter().find(|m| m.id == MODEL).expect("all-MiniLM-L6-v2 is pinned");
    let dir = root.join(ASK);
    match model.status_in(&models_dir())? {
        Status::Present => {
            cargo(root, &["run", "-p", "ch12-real-bert", "--example", "web_index", "--", ASK])
        }
        _ => {
            if dir.exists() {
                std::fs::remove_dir_all(&dir)?;
            }
            println!(
                "ask the book: {MODEL} is not in the cache, so the pages ask for it \
                 (`cargo xtask models` fetches it)"
            );
            Ok(())
        }
    }
}

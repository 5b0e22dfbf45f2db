//! The published models the pages run, beside the WebAssembly modules, when they are in the cache
//! (`cargo xtask models`); nothing of them is committed, and without a model its folder is removed
//! and the page says how to get it:
//!
//! * [`ASK`]: "ask the book" on every page: the book's index (every paragraph embedded natively,
//!   by chapter 12's `web_index` example) and all-MiniLM-L6-v2's files;
//! * [`CHAT`]: chapter 11's chat: SmolLM2-135M-Instruct's GGUF file.
//!
//! Each folder has a `files.json` listing the files the page fetches, with their sizes, so that the
//! page can say how much it will load before it does.

use crate::run::cargo;
use anyhow::{Context, Result};
use std::path::Path;
use workspace_tools::models::{models_dir, Model, Status, MODELS};

/// Where the page finds the index and the encoder's files (git-ignored).
pub const ASK: &str = "book/src/web/ask";
/// Where chapter 11's page finds the chat model's file (git-ignored).
pub const CHAT: &str = "book/src/web/chat";

/// Publishes what the pages need of each model in the cache, or removes a stale copy.
pub fn publish(root: &Path) -> Result<()> {
    if present("all-minilm-l6-v2", root.join(ASK))? {
        cargo(root, &["run", "-p", "ch12-real-bert", "--example", "web_index", "--", ASK])?;
    }
    let chat = root.join(CHAT);
    if present("smollm2-135m-instruct", &chat)? {
        let model = pinned("smollm2-135m-instruct");
        let mut listed = Vec::new();
        for file in model.files {
            let size = copy_if_changed(&model.path(file.name), &chat.join(file.name))?;
            listed.push(serde_json::json!([file.name, size]));
        }
        let list = serde_json::json!({ "model": "SmolLM2-135M-Instruct", "files": listed });
        std::fs::write(chat.join("files.json"), list.to_string())?;
        println!("chat: SmolLM2-135M-Instruct's file published in {CHAT}");
    }
    Ok(())
}

fn pinned(id: &str) -> Model {
    *MODELS.iter().find(|m| m.id == id).expect("a pinned model")
}

/// Whether model `id` is in the cache; if not, its folder is removed and the reason printed.
fn present(id: &str, dir: impl AsRef<Path>) -> Result<bool> {
    if pinned(id).status_in(&models_dir())? == Status::Present {
        return Ok(true);
    }
    if dir.as_ref().exists() {
        std::fs::remove_dir_all(dir.as_ref())?;
    }
    println!("{id} is not in the cache, so its page asks for it (`cargo xtask models` fetches it)");
    Ok(false)
}

/// Copies `from` to `to` unless `to` has its size already (the cache's files are pinned by
/// sha256 and never change in place); returns the size.
fn copy_if_changed(from: &Path, to: &Path) -> Result<u64> {
    let size = std::fs::metadata(from).with_context(|| format!("{}", from.display()))?.len();
    if std::fs::metadata(to).map(|m| m.len()).ok() != Some(size) {
        std::fs::create_dir_all(to.parent().expect("a folder"))?;
        std::fs::copy(from, to).with_context(|| format!("{}", to.display()))?;
    }
    Ok(size)
}

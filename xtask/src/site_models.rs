//! The published models the pages run, beside the WebAssembly modules, when they are in the cache
//! (`cargo xtask models`); nothing of them is committed, and without a model its folder is removed
//! and the page says how to get it:
//!
//! * [`ASK`]: "ask the book" on every page: the book's index (every paragraph embedded natively,
//!   by chapter 12's `web_index` example) and all-MiniLM-L6-v2's files;
//! * [`CHAT`]: chapter 11's chat: SmolLM2-135M-Instruct's GGUF file;
//! * [`HEAR`]: chapter 13's Whisper: tiny.en's files that the page's module reads, and the
//!   chapter's five clips (committed, in `chapters/13-real-whisper/audio/`).
//!
//! Each folder has a `files.json` listing the files the page fetches, with their sizes, so that the
//! page can say how much it will load before it does.

use anyhow::{Context, Result};
use std::path::Path;
use std::process::Command;
use workspace_tools::models::{models_dir, Model, Status, MODELS};
use workspace_tools::outputs::Programs;

/// Where the page finds the index and the encoder's files (git-ignored).
pub const ASK: &str = "book/src/web/ask";
/// Where chapter 11's page finds the chat model's file (git-ignored).
pub const CHAT: &str = "book/src/web/chat";

/// Where chapter 13's page finds Whisper's files and the clips (git-ignored).
pub const HEAR: &str = "book/src/web/hear";
/// The files of Whisper tiny.en the page's module reads (`web-models/src/ch13.rs`'s `FILES`).
const HEAR_FILES: [&str; 3] = ["model.bin", "config.json", "tokenizer.json"];

/// Chapter 12's `web_index` example, built as the tests step builds the workspace (`cargo build
/// --workspace`: one feature resolution, so the chapters and dfdx it compiles are the ones the
/// tests use, not a second set that `cargo run -p ch12-real-bert` would resolve), then run.
fn web_index(root: &Path) -> Result<()> {
    let programs = Programs::build(root, ["web_index"])?;
    let program = programs.get("web_index").context("cargo built no web_index program")?;
    println!("$ {} {ASK}", program.display());
    let status = Command::new(program).current_dir(root).arg(ASK).status()?;
    anyhow::ensure!(status.success(), "`web_index {ASK}` failed ({status})");
    Ok(())
}

/// Publishes what the pages need of each model in the cache, or removes a stale copy.
pub fn publish(root: &Path) -> Result<()> {
    if present("all-minilm-l6-v2", root.join(ASK))? {
        web_index(root)?;
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
    let hear = root.join(HEAR);
    if present("whisper-tiny-en", &hear)? {
        let model = pinned("whisper-tiny-en");
        let mut listed = Vec::new();
        for name in HEAR_FILES {
            let size = copy_if_changed(&model.path(name), &hear.join(name))?;
            listed.push(serde_json::json!([name, size]));
        }
        let audio = root.join("chapters/13-real-whisper/audio");
        let mut clips = Vec::new();
        for clip in ch13_clips(&audio)? {
            copy_if_changed(&audio.join(&clip), &hear.join("clips").join(&clip))?;
            clips.push(clip);
        }
        let list =
            serde_json::json!({ "model": "Whisper tiny.en", "files": listed, "clips": clips });
        std::fs::write(hear.join("files.json"), list.to_string())?;
        println!("hear: Whisper tiny.en's files and {} clips published in {HEAR}", clips.len());
    }
    Ok(())
}

/// The chapter's clips: the WAV files of its `audio/` folder, by name.
fn ch13_clips(audio: &Path) -> Result<Vec<String>, anyhow::Error> {
    let mut clips: Vec<String> = std::fs::read_dir(audio)
        .with_context(|| format!("{}", audio.display()))?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".wav"))
        .collect();
    clips.sort();
    Ok(clips)
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

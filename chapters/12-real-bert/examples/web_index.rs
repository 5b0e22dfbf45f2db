//! The book's index for "ask the book" in the online book: every paragraph of `book/src` embedded
//! natively (the same index as the `search` example's), written into a folder as the page reads
//! it, with all-MiniLM-L6-v2's files beside it. `cargo xtask book` and `serve` run it when the
//! model is in the cache.
//!
//! ```text
//! cargo run -p ch12-real-bert --example web_index -- book/src/web/ask
//! ```

use std::path::Path;

use ch12_real_bert::files::FILES;
use ch12_real_bert::search::current_index;
use ch12_real_bert::{web_index, ModelFiles, SentenceEncoder};
use support::cli::{args_or_exit, or_exit};
use support::Dev;

fn main() {
    let args = args_or_exit();
    let [dir] = args.as_slice() else {
        eprintln!("usage: web_index FOLDER (where the page's index and model files go)");
        std::process::exit(2);
    };
    let dir = Path::new(dir);
    let files = ModelFiles::locate_or_exit();
    let encoder = or_exit(SentenceEncoder::load(&Dev::default(), &files));
    let index = or_exit(current_index(&encoder, |n| {
        if n > 0 {
            eprintln!("indexing {n} paragraphs of book/src (once per change of the book)");
        }
    }));
    or_exit(web_index::write(&index, dir));
    let mut listed = Vec::new();
    for name in FILES {
        let (from, to) = (files.path(name), dir.join(name));
        listed.push((name.to_string(), or_exit(copy_if_changed(&from, &to))));
    }
    for name in [web_index::MANIFEST, web_index::VECTORS] {
        let path = dir.join(name);
        listed.push((name.to_string(), or_exit(std::fs::metadata(&path)).len()));
    }
    let bytes: u64 = listed.iter().map(|(_, size)| size).sum();
    // what the page fetches, with each file's size: it says how much before it loads
    let list = serde_json::json!({ "model": "all-MiniLM-L6-v2", "files": listed });
    or_exit(support::saved::save_bytes(
        dir.join(web_index::FILE_LIST),
        list.to_string().as_bytes(),
    ));
    println!(
        "{}: {} paragraphs indexed, all-MiniLM-L6-v2's {} files beside them ({:.1} MB)",
        dir.display(),
        index.paragraphs.len(),
        FILES.len(),
        bytes as f64 / 1e6
    );
}

/// Copies `from` to `to` unless `to` has the same size already (the model's files never change
/// in place: `cargo xtask models` pins them by sha256); returns the size.
fn copy_if_changed(from: &Path, to: &Path) -> Result<u64, String> {
    let size = std::fs::metadata(from).map_err(|e| format!("{}: {e}", from.display()))?.len();
    if std::fs::metadata(to).map(|m| m.len()).ok() != Some(size) {
        std::fs::create_dir_all(to.parent().expect("a folder"))
            .and_then(|()| std::fs::copy(from, to))
            .map_err(|e| format!("{}: {e}", to.display()))?;
    }
    Ok(size)
}

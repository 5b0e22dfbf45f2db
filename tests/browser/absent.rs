//! The book built without the published models (no `cargo xtask models`): it serves as before,
//! and each model's box says in one line how to get them instead of failing.

use std::path::Path;
use std::time::Duration;

use super::cdp::Browser;

use super::{eval_json, open, wait_for_state};

/// The folders of the models' files in the built book.
const MODEL_FOLDERS: [&str; 3] = ["web/ask", "web/chat", "web/hear"];

/// Copies the built book in `from` to `to`, without the models' folders.
pub fn copy_without_models(from: &Path, to: &Path) {
    copy_tree(from, to, "");
}

/// The files below `from` (at `at` in the book) to `to`, but for [`MODEL_FOLDERS`].
fn copy_tree(from: &Path, to: &Path, at: &str) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let here = if at.is_empty() { name } else { format!("{at}/{name}") };
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if MODEL_FOLDERS.contains(&here.as_str()) {
            continue;
        }
        if source.is_dir() {
            copy_tree(&source, &target, &here);
        } else {
            std::fs::copy(&source, &target).unwrap();
        }
    }
}

/// What is wrong with the boxes of a book served at `base` without the models' files.
pub fn check_absent(browser: &Browser, base: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let cases = [
        ("introduction.html", "ask-panel", Some("ask-toggle"), ".ask-status"),
        ("11-real-llm.html", "ch11-chat", None, ".chat-status"),
        ("13-real-whisper.html", "ch13-hear", None, ".chat-status"),
    ];
    for (page, id, toggle, status) in cases {
        let tab = open(browser, &format!("{base}{page}"));
        if let Some(toggle) = toggle {
            eval_json(&tab, &format!("document.getElementById('{toggle}').click(), '\"\"'"));
        }
        let state = wait_for_state(&tab, id, &["absent", "idle"], Duration::from_secs(20));
        let said = eval_json(
            &tab,
            &format!("JSON.stringify(document.querySelector('#{id} {status}').textContent)"),
        );
        let said = said.as_str().unwrap_or("");
        if state != "absent" || !said.contains("`cargo xtask models`") {
            problems.push(format!("{page}: without the models, {id} is {state:?}: {said:?}"));
        }
        let _ = tab.close();
    }
    problems
}

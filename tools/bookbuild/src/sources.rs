//! Checks of the book's sources, before anything is rendered: [`check_sources`] and
//! [`find_problems`], which runs the checks of the submodules on every markdown file.
//!
//! * `book_files`: `book.toml`, the KaTeX assets and the chapter list in `SUMMARY.md`.
//! * `includes`: `{{#include}}` / `{{#rustdoc_include}}` targets, anchors and line ranges.
//! * `markdown`: ```` ```rust ```` blocks, images and local links.
//! * `math`: the formulas, which must render with KaTeX.

mod book_files;
mod includes;
mod markdown;
mod math;

use crate::problem::{report, LineIndex};
use crate::walk::all_files;
use crate::{book_dir, Problem};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

/// Validates the book sources; fails with one error that lists every problem.
///
/// See [`find_problems`] for what is checked.
pub fn check_sources(root: &Path) -> Result<()> {
    let problems = find_problems(root)?;
    if problems.is_empty() {
        return Ok(());
    }
    bail!("{}", report("problem(s) in the book sources", &problems))
}

/// Every problem in the book sources under `<root>/book`, sorted by file and line.
///
/// Checks:
/// * `book.toml` loads, and the files it lists in `additional-css` / `additional-js` exist;
///   the KaTeX stylesheet `src/katex/katex.min.css` and the `.woff2` fonts it names exist;
/// * every chapter listed in `SUMMARY.md` exists;
/// * in every markdown file under `book/src`:
///   * every `{{#include path}}` / `{{#rustdoc_include path}}` names an existing file (relative to
///     the markdown file); with `path:anchor`, the file has `ANCHOR: anchor` and
///     `ANCHOR_END: anchor`; with a line range, the file is long enough;
///   * every ```` ```rust ```` block holds nothing but include lines (no Rust that is not compiled);
///   * every image (markdown or `<img>`) is a local file inside `book/src` (so it is copied into
///     the rendered book) and nothing is loaded over the network;
///   * every relative link points at an existing file inside `book/src`;
///   * every `$…$` / `$$…$$` formula renders with KaTeX.
///
/// Returns `Err` only when the check itself cannot run (unreadable folders).
pub fn find_problems(root: &Path) -> Result<Vec<Problem>> {
    let book = book_dir(root);
    let src = book.join("src");
    let mut problems = Vec::new();
    let rel = |p: &Path| p.strip_prefix(root).unwrap_or(p).to_path_buf();

    // book.toml and the assets it needs.
    let katex_cfg = book_files::check_book_toml(&book, &rel, &mut problems);
    book_files::check_katex_assets(&src, &rel, &mut problems);

    // SUMMARY.md
    let summary_path = src.join("SUMMARY.md");
    book_files::check_summary(&summary_path, &src, &rel, &mut problems);

    // Every markdown file.
    let (inline_opts, display_opts) = katex_cfg.build_opts(&book);
    let mut files = Vec::new();
    markdown_files(&src, &mut files)?;
    for path in files {
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let lines = LineIndex::new(&text);
        let mut add = |offset: usize, message: String| {
            problems.push(Problem { file: rel(&path), line: lines.line(offset), message });
        };
        let dir = path.parent().unwrap_or(&src);
        includes::check_includes(&text, dir, &mut add);
        // SUMMARY.md's links are the chapter list, checked above.
        if path != summary_path {
            markdown::check_markdown(&text, dir, &src, &mut add);
        }
        math::check_math(&text, &inline_opts, &display_opts, &mut add);
    }
    problems.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    Ok(problems)
}

/// Appends every `.md` file under `dir` to `out`, in the order [`all_files`] walks them.
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut files = Vec::new();
    all_files(dir, &mut files)?;
    out.extend(files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "md")));
    Ok(())
}

//! The book's structure: the chapter pages `SUMMARY.md` lists, in reading order.

use crate::book_dir;
use crate::scan::{count_mermaid, math_spans, summary_links};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// A chapter page listed in `SUMMARY.md`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The title given in `SUMMARY.md`.
    pub title: String,
    /// The markdown file, relative to `book/src`.
    pub source: PathBuf,
    /// The rendered page, relative to the output folder.
    pub html: PathBuf,
    /// Number of `$…$` / `$$…$$` formulas in the markdown.
    pub math: usize,
    /// Number of ```` ```mermaid ```` diagrams in the markdown.
    pub mermaid: usize,
}

/// The pages listed in `book/src/SUMMARY.md`, in reading order.
pub fn pages(root: &Path) -> Result<Vec<Page>> {
    let src = book_dir(root).join("src");
    let summary_path = src.join("SUMMARY.md");
    let text = std::fs::read_to_string(&summary_path)
        .with_context(|| format!("cannot read {}", summary_path.display()))?;
    let summary = mdbook_summary::parse_summary(&text)
        .with_context(|| format!("cannot parse {}", summary_path.display()))?;
    let mut pages = Vec::new();
    for (title, source) in summary_links(&summary) {
        let path = src.join(&source);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read chapter `{title}`: {}", path.display()))?;
        pages.push(Page {
            title,
            html: source.with_extension("html"),
            math: math_spans(&text).len(),
            mermaid: count_mermaid(&text),
            source,
        });
    }
    Ok(pages)
}

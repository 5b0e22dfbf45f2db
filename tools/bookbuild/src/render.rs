//! Renders the book with mdBook, run in-process with the KaTeX preprocessor and two of its own:
//! one puts the diagrams' drawings in place of their ```` ```mermaid ```` blocks, one dedents
//! included listings.

use crate::problem::report;
use crate::{book_dir, check_output, check_sources};
use anyhow::{bail, Context, Result};
use mdbook_driver::MDBook;
use mdbook_katex::preprocess::KatexProcessor;
use std::path::{Path, PathBuf};

/// Builds the book in `<root>/book` into `<root>/book/build` and returns that folder.
///
/// Runs [`check_sources`] first and [`check_output`] after, so a broken include, a formula that
/// does not render or a resource from a CDN fails the build.
pub fn build(root: &Path) -> Result<PathBuf> {
    check_sources(root)?;
    let book = book_dir(root);
    let mut md = MDBook::load(&book)
        .with_context(|| format!("cannot load the book in {}", book.display()))?;
    // `book.toml` declares the KaTeX preprocessor; here it runs in-process instead of as an
    // external command
    md.with_preprocessor(KatexProcessor);
    // after KaTeX, so that it never reads a drawing's text as math
    md.with_preprocessor(Diagrams::new(root)?);
    // registered last, so it runs after `links` has expanded the includes
    md.with_preprocessor(DedentListings);
    md.build().context("mdbook failed to build the book")?;
    let out = md.build_dir_for("html");
    let problems = check_output(&out)?;
    if !problems.is_empty() {
        bail!("{}", report("problem(s) in the rendered book", &problems));
    }
    Ok(out)
}

/// Puts the committed drawings (`book/src/diagrams/`, see [`crate::diagrams`]) in place of every
/// ```` ```mermaid ```` block; a block without its drawings fails the build.
struct Diagrams {
    root: PathBuf,
    mermaid_js: Vec<u8>,
}

impl Diagrams {
    fn new(root: &Path) -> Result<Self> {
        let path = root.join(crate::diagrams::MERMAID);
        let mermaid_js = std::fs::read(&path).with_context(|| format!("{}", path.display()))?;
        Ok(Diagrams { root: root.to_path_buf(), mermaid_js })
    }
}

impl mdbook_preprocessor::Preprocessor for Diagrams {
    fn name(&self) -> &str {
        "diagrams"
    }

    fn run(
        &self,
        _ctx: &mdbook_preprocessor::PreprocessorContext,
        mut book: mdbook_driver::book::Book,
    ) -> mdbook_preprocessor::errors::Result<mdbook_driver::book::Book> {
        let mut problems = Vec::new();
        book.for_each_mut(|item| {
            if let mdbook_driver::book::BookItem::Chapter(ch) = item {
                let drawing = |theme: &str, source: &str| {
                    let key = crate::diagrams::key(&self.mermaid_js, theme, source);
                    std::fs::read_to_string(crate::diagrams::svg_path(&self.root, &key)).ok()
                };
                match crate::diagrams::inline(&ch.content, drawing) {
                    Ok(content) => ch.content = content,
                    Err(e) => problems.push(format!("{}: {e}", ch.name)),
                }
            }
        });
        if !problems.is_empty() {
            return Err(anyhow::anyhow!("{}", problems.join("\n")));
        }
        Ok(book)
    }
}

/// Removes the indentation that code included from inside a function keeps (an anchored include
/// of the body of `fn main` starts four spaces in), so every listing starts at column 0.
struct DedentListings;

impl mdbook_preprocessor::Preprocessor for DedentListings {
    fn name(&self) -> &str {
        "dedent-listings"
    }

    fn run(
        &self,
        _ctx: &mdbook_preprocessor::PreprocessorContext,
        mut book: mdbook_driver::book::Book,
    ) -> mdbook_preprocessor::errors::Result<mdbook_driver::book::Book> {
        book.for_each_mut(|item| {
            if let mdbook_driver::book::BookItem::Chapter(ch) = item {
                ch.content = dedent_code_blocks(&ch.content);
            }
        });
        Ok(book)
    }
}

/// Dedents the body of every fenced code block of `markdown` by its common leading whitespace.
pub fn dedent_code_blocks(markdown: &str) -> String {
    let lines: Vec<&str> = markdown.split('\n').collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        out.push(lines[i].to_string());
        let fence = lines[i].trim_start();
        if !(fence.starts_with("```") && lines[i].len() - fence.len() < 4) {
            i += 1;
            continue;
        }
        // find the closing fence
        let Some(end) = (i + 1..lines.len()).find(|&j| lines[j].trim_start().starts_with("```"))
        else {
            i += 1;
            continue;
        };
        let body = &lines[i + 1..end];
        let indent = body
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start_matches(' ').len())
            .min()
            .unwrap_or(0);
        out.extend(body.iter().map(|l| l.get(indent..).unwrap_or("").to_string()));
        out.push(lines[end].to_string());
        i = end + 1;
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::dedent_code_blocks;

    #[test]
    fn dedents_fenced_blocks_only() {
        let md = "text\n    indented prose\n```rust\n    let a = 1;\n        let b = 2;\n\n    c();\n```\nafter";
        assert_eq!(
            dedent_code_blocks(md),
            "text\n    indented prose\n```rust\nlet a = 1;\n    let b = 2;\n\nc();\n```\nafter"
        );
    }

    #[test]
    fn leaves_unindented_and_unclosed_blocks_alone() {
        let md = "```text\na\n  b\n```\n```rust\n    open";
        assert_eq!(dedent_code_blocks(md), md);
    }
}

//! The book's diagrams, drawn ahead of time. A ```` ```mermaid ```` block stays in the markdown as
//! its source; `cargo xtask diagrams` draws it with mermaid.js ([`MERMAID`]) in headless chromium,
//! once per theme ([`THEMES`]), into `book/src/diagrams/<key>.svg` ([`DIAGRAMS`]); the build puts
//! the drawings into the page in place of the block. A page then loads no mermaid.js (2.7 MB) and
//! draws nothing. The key hashes the source, the theme and mermaid.js itself, so a changed diagram
//! or a new mermaid.js has no drawing until it is drawn again, and the build says so.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

/// mermaid.js, used only to draw the diagrams (never published with the book).
pub const MERMAID: &str = "tools/bookbuild/diagrams/mermaid.min.js";
/// Where the drawn diagrams are committed, relative to the workspace root.
pub const DIAGRAMS: &str = "book/src/diagrams";
/// mermaid's themes the book draws each diagram in: for mdBook's light themes, then its dark
/// ones (the page shows the one that matches).
pub const THEMES: [&str; 2] = ["default", "dark"];

/// The text of each ```` ```mermaid ```` block of `markdown`, with the byte range the block
/// (fences included) takes.
pub fn mermaid_blocks(markdown: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let mut blocks = Vec::new();
    let mut current: Option<(std::ops::Range<usize>, String)> = None;
    for (event, range) in Parser::new(markdown).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                if info.split([',', ' ']).next() == Some("mermaid") =>
            {
                current = Some((range, String::new()));
            }
            Event::Text(text) => {
                if let Some((_, source)) = &mut current {
                    source.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => blocks.extend(current.take()),
            _ => {}
        }
    }
    blocks
}

/// A drawing's name: the first 16 hex digits of the SHA-256 of mermaid.js, the theme and the
/// diagram's source.
pub fn key(mermaid_js: &[u8], theme: &str, source: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(mermaid_js);
    hash.update([0]);
    hash.update(theme.as_bytes());
    hash.update([0]);
    hash.update(source.as_bytes());
    hash.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// Where the drawing of `key` is committed.
pub fn svg_path(root: &Path, key: &str) -> PathBuf {
    root.join(DIAGRAMS).join(format!("{key}.svg"))
}

/// `markdown` with every ```` ```mermaid ```` block replaced by its drawings, one `<div>` per
/// theme inside `<div class="diagram">`, each as `drawing(theme, source)` gives it; the error
/// lists the diagrams without a drawing.
pub fn inline(
    markdown: &str,
    drawing: impl Fn(&str, &str) -> Option<String>,
) -> Result<String, String> {
    let mut out = String::with_capacity(markdown.len());
    let mut missing = Vec::new();
    let mut at = 0;
    for (range, source) in mermaid_blocks(markdown) {
        out.push_str(&markdown[at..range.start]);
        out.push_str("<div class=\"diagram\">");
        for theme in THEMES {
            match drawing(theme, &source) {
                // an HTML block ends at a blank line: keep the drawing on one line
                Some(svg) => out.push_str(&format!(
                    "<div class=\"diagram-{theme}\">{}</div>",
                    svg.replace(['\r', '\n'], " ")
                )),
                None => {
                    missing.push(format!("{theme}: {}", source.lines().next().unwrap_or("").trim()))
                }
            }
        }
        out.push_str("</div>\n");
        at = range.end;
    }
    out.push_str(&markdown[at..]);
    if missing.is_empty() {
        Ok(out)
    } else {
        Err(format!(
            "{} diagram drawing(s) missing ({}): run `cargo xtask diagrams`",
            missing.len(),
            missing.join("; ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "Text.\n\n```mermaid\ngraph LR\n  A --> B\n```\n\nMore.\n";

    #[test]
    fn blocks_are_found_with_their_sources() {
        let blocks = mermaid_blocks(PAGE);
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0].1, "graph LR\n  A --> B\n");
        assert!(PAGE[blocks[0].0.clone()].starts_with("```mermaid"));
        assert!(mermaid_blocks("```rust\nfn main() {}\n```\n").is_empty());
    }

    #[test]
    fn a_block_becomes_its_drawings_or_an_error_that_says_what_to_run() {
        let drawn = inline(PAGE, |theme, _| Some(format!("<svg>\n{theme}</svg>"))).unwrap();
        assert!(drawn.contains(
            "<div class=\"diagram\"><div class=\"diagram-default\"><svg> default</svg></div>\
             <div class=\"diagram-dark\"><svg> dark</svg></div></div>\n"
        ));
        assert!(drawn.starts_with("Text.\n\n<div") && drawn.ends_with("\nMore.\n"));
        let err = inline(PAGE, |theme, _| (theme == "dark").then(String::new)).unwrap_err();
        assert!(err.contains("default: graph LR") && err.contains("cargo xtask diagrams"), "{err}");
    }

    #[test]
    fn the_key_changes_with_the_source_the_theme_and_mermaid() {
        let k = key(b"js", "default", "graph LR");
        assert_eq!(k.len(), 16);
        assert_ne!(k, key(b"js", "dark", "graph LR"));
        assert_ne!(k, key(b"js", "default", "graph TD"));
        assert_ne!(k, key(b"js2", "default", "graph LR"));
    }
}

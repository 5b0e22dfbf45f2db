//! Scanning a page's text and the chapter list, without judging it: the formulas, the mermaid
//! diagrams, the links of `SUMMARY.md`. Both the source checks (`sources`) and the book's
//! structure (`structure`) build on these; this module imports neither.

use mdbook_katex::preprocess::{get_render_tasks, Render};
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag};
use std::path::PathBuf;

/// The formulas mdbook-katex will render in `text`: `(byte offset, TeX, display?)`.
pub fn math_spans(text: &str) -> Vec<(usize, &str, bool)> {
    let extra = mdbook_katex::cfg::KatexConfig::default().build_extra_opts();
    let base = text.as_ptr() as usize;
    get_render_tasks(text, "", &extra)
        .into_iter()
        .filter_map(|task| match task {
            Render::Text(_) => None,
            Render::InlineTask(tex) => Some((tex.as_ptr() as usize - base, tex, false)),
            Render::DisplayTask(tex) => Some((tex.as_ptr() as usize - base, tex, true)),
        })
        .collect()
}

/// Number of ```` ```mermaid ```` diagrams in `text`.
pub(crate) fn count_mermaid(text: &str) -> usize {
    Parser::new(text)
        .filter(|e| {
            matches!(e, Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                if info.split([',', ' ']).next() == Some("mermaid"))
        })
        .count()
}

/// The `(title, file)` of every chapter `summary` links to, in reading order; drafts (chapters
/// without a file) are left out.
pub(crate) fn summary_links(summary: &mdbook_summary::Summary) -> Vec<(String, PathBuf)> {
    fn walk(items: &[mdbook_summary::SummaryItem], out: &mut Vec<(String, PathBuf)>) {
        for item in items {
            if let mdbook_summary::SummaryItem::Link(link) = item {
                if let Some(location) = &link.location {
                    out.push((link.name.clone(), location.clone()));
                }
                walk(&link.nested_items, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(&summary.prefix_chapters, &mut out);
    walk(&summary.numbered_chapters, &mut out);
    walk(&summary.suffix_chapters, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn math_spans_are_found() {
        let spans = math_spans("a $x$ b\n\n$$\ny^2\n$$\n\n`$not math$`");
        assert_eq!(spans.len(), 2);
        assert_eq!(spans[0], (3, "x", false));
        assert!(spans[1].2);
    }
}

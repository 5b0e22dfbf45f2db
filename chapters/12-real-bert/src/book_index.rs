//! This book's pages as paragraphs to search: the prose of `book/src`, without its listings,
//! tables, formulas on their own lines and test notes, each paragraph labelled with its chapter
//! and section.

use std::path::Path;

/// One paragraph of prose (or one list item), where it is, and its text without Markdown.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Paragraph {
    /// the page's file, e.g. `01-attention.md`
    pub page: String,
    /// the chapter's number and title, e.g. `1 Dot-product attention`
    pub chapter: String,
    /// the heading the paragraph is under
    pub section: String,
    pub text: String,
}

/// Fewer words than this is a caption or a label, not a paragraph worth ranking.
pub const MIN_WORDS: usize = 6;

/// The paragraphs of one page, in order.
// ANCHOR: paragraphs
pub fn paragraphs(markdown: &str, page: &str) -> Vec<Paragraph> {
    let number = page.split('-').next().and_then(|n| n.parse::<u32>().ok());
    let (mut chapter, mut section) = (String::new(), String::new());
    let (mut out, mut lines, mut in_code) = (Vec::new(), Vec::<&str>::new(), false);
    let mut in_html = false; // inside `<div ...>` ... `</div>`: a widget, or its note without one
    let mut flush = |lines: &mut Vec<&str>, chapter: &str, section: &str| {
        let text = plain(&lines.join(" "));
        if text.split_whitespace().count() >= MIN_WORDS {
            let (page, chapter, section) = (page.into(), chapter.into(), section.into());
            out.push(Paragraph { page, chapter, section, text });
        }
        lines.clear();
    };
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_code = !in_code;
            flush(&mut lines, &chapter, &section);
            continue;
        }
        if !in_code && trimmed.starts_with("<div") {
            in_html = !trimmed.contains("</div>");
        } else if in_html && trimmed.starts_with("</div>") {
            in_html = false;
            continue;
        }
        let skipped =
            ["{{#", "|", ">", "$$", "<", "!["].iter().any(|p| trimmed.starts_with(p)) || in_html;
        let item = ["- ", "* "].iter().any(|p| trimmed.starts_with(p))
            || trimmed.split_once(". ").is_some_and(|(n, _)| n.parse::<u32>().is_ok());
        if in_code || trimmed.is_empty() || skipped || trimmed.starts_with('#') || item {
            flush(&mut lines, &chapter, &section);
        }
        if in_code || trimmed.is_empty() || skipped {
            continue;
        }
        if let Some(heading) = trimmed.strip_prefix("# ") {
            chapter = match number {
                Some(n) => format!("{n} {}", plain(heading)),
                None => plain(heading),
            };
            section = chapter.clone();
        } else if trimmed.starts_with('#') {
            section = plain(trimmed.trim_start_matches('#'));
        } else {
            lines.push(trimmed);
        }
    }
    flush(&mut lines, &chapter, &section);
    out
}
// ANCHOR_END: paragraphs

/// Markdown to plain text: links and images keep their words, emphasis and code marks go, and so
/// do the dollar signs around formulas, and list markers. Brackets that are no link (`[CLS]`) stay.
pub fn plain(markdown: &str) -> String {
    let mut s = markdown.trim();
    for marker in ["- ", "* "] {
        s = s.strip_prefix(marker).unwrap_or(s);
    }
    if let Some((n, rest)) = s.split_once(". ") {
        if n.parse::<u32>().is_ok() {
            s = rest;
        }
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        rest = &rest[open + 1..];
        match link(rest) {
            Some((words, after)) => {
                if out.ends_with('!') {
                    out.pop(); // an image: its words are its caption
                }
                out.push_str(words); // the link's words, without its address
                rest = after;
            }
            None => out.push('['),
        }
    }
    out.push_str(rest);
    let out: String = out.chars().filter(|c| !matches!(c, '*' | '`' | '$')).collect();
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// After a `[`: the words of a link `words](address)` and the text after it, or `None` when the
/// bracket opens no link. The words may hold brackets of their own (`[on [CLS]](x.svg)`).
fn link(after_open: &str) -> Option<(&str, &str)> {
    let mut depth = 1;
    let close = after_open.char_indices().find_map(|(i, c)| {
        depth += match c {
            '[' => 1,
            ']' => -1,
            _ => 0,
        };
        (depth == 0).then_some(i)
    })?;
    let address = after_open[close + 1..].strip_prefix('(')?;
    let end = address.find(')')?;
    Some((&after_open[..close], &address[end + 1..]))
}

/// The book's chapter pages (`NN-*.md`) and its introduction, in order, as paragraphs.
pub fn book_paragraphs(book_src: &Path) -> Result<Vec<Paragraph>, String> {
    let mut pages: Vec<String> = std::fs::read_dir(book_src)
        .map_err(|e| format!("{}: {e}", book_src.display()))?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| {
            name.ends_with(".md")
                && (name == "introduction.md"
                    || name.as_bytes().first().is_some_and(u8::is_ascii_digit))
        })
        .collect();
    pages.sort_by_key(|name| (name != "introduction.md", name.clone()));
    let mut out = Vec::new();
    for page in pages {
        let path = book_src.join(&page);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        out.extend(paragraphs(&text, &page));
    }
    Ok(out)
}

/// The book's `src` folder, beside this crate in the workspace.
pub fn book_src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../book/src")
}

/// A fingerprint of the paragraphs (64-bit FNV-1a of every field): an index built from other
/// text has another one, so a stale index is noticed and rebuilt.
pub fn fingerprint(paragraphs: &[Paragraph]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for p in paragraphs {
        for field in [&p.page, &p.chapter, &p.section, &p.text] {
            for byte in field.bytes().chain([0]) {
                hash = (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    format!("{hash:016x}")
}

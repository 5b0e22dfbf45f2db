//! Checks of the markdown itself: ```` ```rust ```` blocks hold nothing but includes, images and
//! local links resolve inside `book/src`, nothing is loaded over the network.

use super::includes::is_include_line;
use crate::url::{has_scheme, is_external, percent_decode};
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use regex::Regex;
use std::path::{Component, Path, PathBuf};
use std::sync::LazyLock;

/// Reports, through `add(byte offset, message)`, every ```` ```rust ```` line of `text` (a markdown
/// file in `dir`) that is not an include, and every image or local link that does not resolve to
/// a file inside `src`.
pub(super) fn check_markdown(
    text: &str,
    dir: &Path,
    src: &Path,
    add: &mut impl FnMut(usize, String),
) {
    static IMG_TAG: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"(?i)<img\b[^>]*?\bsrc\s*=\s*["']([^"']*)["']"#).unwrap());
    let mut in_rust: Option<usize> = None;
    for (event, range) in Parser::new_ext(text, Options::all()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let lang = info.split([',', ' ', '\t']).next().unwrap_or("").trim();
                let lang = lang.trim_start_matches('{').trim_start_matches('.');
                if lang == "rust" || lang == "rs" {
                    in_rust = Some(range.start);
                }
            }
            Event::End(TagEnd::CodeBlock) => in_rust = None,
            Event::Text(code) if in_rust.is_some() => {
                let mut offset = range.start;
                for line in code.split_inclusive('\n') {
                    if !line.trim().is_empty() && !is_include_line(line) {
                        add(
                            offset,
                            format!(
                                "```rust block has a line that is not an {{{{#include}}}}: `{}` \
                                 (move the code into a chapter crate and include it by anchor)",
                                line.trim()
                            ),
                        );
                    }
                    offset += line.len();
                }
            }
            Event::Start(Tag::Image { dest_url, .. }) => {
                if is_external(&dest_url) {
                    add(range.start, format!("image `{dest_url}` is loaded from the network; add the file under book/src instead"));
                } else if !dest_url.starts_with("data:") {
                    check_local("image", &dest_url, dir, src, range.start, add);
                }
            }
            Event::Start(Tag::Link { dest_url, .. }) if !has_scheme(&dest_url) => {
                check_local("link", &dest_url, dir, src, range.start, add);
            }
            Event::Html(html) | Event::InlineHtml(html) => {
                for cap in IMG_TAG.captures_iter(&html) {
                    let url = &cap[1];
                    let offset = range.start + cap.get(0).unwrap().start();
                    if is_external(url) {
                        add(offset, format!("image `{url}` is loaded from the network; add the file under book/src instead"));
                    } else if !url.starts_with("data:") {
                        check_local("image", url, dir, src, offset, add);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Checks one local reference (image or link) of a markdown file in `dir`.
fn check_local(
    what: &str,
    url: &str,
    dir: &Path,
    src: &Path,
    offset: usize,
    add: &mut impl FnMut(usize, String),
) {
    let path_part = url.split(['#', '?']).next().unwrap_or("");
    if path_part.is_empty() {
        return; // `#fragment` on the same page
    }
    if path_part.starts_with('/') {
        add(offset, format!("{what} `{url}` is an absolute path; use a path relative to the page"));
        return;
    }
    let target = normalize(&dir.join(percent_decode(path_part)));
    if !target.starts_with(normalize(src)) {
        add(
            offset,
            format!(
                "{what} `{url}` points outside book/src, so it is not part of the rendered book"
            ),
        );
    } else if !target.exists() {
        add(offset, format!("{what} `{url}` does not exist"));
    }
}

/// Lexically resolves `.` and `..`.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

//! Builds, checks and serves the book, with mdBook used as a library.
//!
//! * [`check_sources`] validates the markdown before anything is rendered: every chapter listed in
//!   `SUMMARY.md` exists, every `{{#include}}` / `{{#rustdoc_include}}` points at an existing file
//!   (and anchor), every ```` ```rust ```` block only includes compiled code, images and local
//!   links resolve, and every formula renders with KaTeX.
//! * [`build`] renders `book/` into `book/build/`: math is turned into HTML at build time by
//!   KaTeX (`mdbook-katex`), ```` ```mermaid ```` blocks become `<pre class="mermaid">` drawn by the
//!   mermaid.js shipped with the book (`mdbook-mermaid`). Nothing is loaded from a CDN, which
//!   [`check_output`] verifies on the rendered HTML.
//! * [`serve`] / [`serve_in_background`] serve the rendered book over HTTP.
//!
//! All paths taken by the public functions are the workspace root (the folder holding `book/`),
//! except [`serve_in_background`] and [`check_output`], which take the rendered HTML folder.

use anyhow::{bail, Context, Result};
use mdbook_driver::config::Config;
use mdbook_driver::MDBook;
use mdbook_katex::preprocess::{get_render_tasks, KatexProcessor, Render};
use mdbook_mermaid::Mermaid;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use regex::Regex;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};
use std::thread::JoinHandle;
use std::time::Duration;

/// The book's folder inside the workspace root.
pub fn book_dir(root: &Path) -> PathBuf {
    root.join("book")
}

/// The folder [`build`] writes the HTML to: `<root>/book/build`.
pub fn output_dir(root: &Path) -> PathBuf {
    book_dir(root).join("build")
}

/// One problem found by [`find_problems`] or [`check_output`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file, relative to the folder that was checked where possible.
    pub file: PathBuf,
    /// 1-based line, or 0 when the problem is about the whole file.
    pub line: usize,
    /// What is wrong, and where it helps, how to fix it.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}: {}", self.file.display(), self.line, self.message)
        } else {
            write!(f, "{}: {}", self.file.display(), self.message)
        }
    }
}

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

fn summary_links(summary: &mdbook_summary::Summary) -> Vec<(String, PathBuf)> {
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

fn report(what: &str, problems: &[Problem]) -> String {
    let mut msg = format!("{} {what}:", problems.len());
    for p in problems {
        msg.push_str("\n  - ");
        msg.push_str(&p.to_string());
    }
    msg
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
    let toml_path = book.join("book.toml");
    let mut katex_cfg = mdbook_katex::cfg::KatexConfig::default();
    if !toml_path.is_file() {
        problems.push(Problem { file: rel(&toml_path), line: 0, message: "missing".into() });
    } else {
        match Config::from_disk(&toml_path) {
            Err(e) => problems.push(Problem {
                file: rel(&toml_path),
                line: 0,
                message: format!("does not load: {e:#}"),
            }),
            Ok(config) => {
                katex_cfg = mdbook_katex::cfg::get_config(&config).unwrap_or_default();
                match config.html_config() {
                    None => {}
                    Some(html) => {
                        for file in html.additional_css.iter().chain(&html.additional_js) {
                            if !book.join(file).is_file() {
                                problems.push(Problem {
                                    file: rel(&toml_path),
                                    line: 0,
                                    message: format!(
                                        "additional file `{}` does not exist",
                                        file.display()
                                    ),
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    let katex_css = src.join("katex").join("katex.min.css");
    match std::fs::read_to_string(&katex_css) {
        Err(_) => problems.push(Problem {
            file: rel(&katex_css),
            line: 0,
            message: "missing: math needs KaTeX's stylesheet and fonts \
                      (`npm pack katex@0.16.4`, copy dist/katex.min.css and dist/fonts/*.woff2)"
                .into(),
        }),
        Ok(css) => {
            static FONT: LazyLock<Regex> =
                LazyLock::new(|| Regex::new(r"url\((fonts/[^)]+\.woff2)\)").unwrap());
            for cap in FONT.captures_iter(&css) {
                let font = src.join("katex").join(&cap[1]);
                if !font.is_file() {
                    problems.push(Problem {
                        file: rel(&katex_css),
                        line: 0,
                        message: format!("font `{}` is missing", &cap[1]),
                    });
                }
            }
        }
    }

    // SUMMARY.md
    let summary_path = src.join("SUMMARY.md");
    match std::fs::read_to_string(&summary_path) {
        Err(e) => problems.push(Problem {
            file: rel(&summary_path),
            line: 0,
            message: format!("cannot read: {e}"),
        }),
        Ok(text) => match mdbook_summary::parse_summary(&text) {
            Err(e) => problems.push(Problem {
                file: rel(&summary_path),
                line: 0,
                message: format!("does not parse: {e:#}"),
            }),
            Ok(summary) => {
                for (title, location) in summary_links(&summary) {
                    if !src.join(&location).is_file() {
                        let needle = format!("]({})", location.display());
                        let line =
                            text.lines().position(|l| l.contains(&needle)).map_or(0, |i| i + 1);
                        problems.push(Problem {
                            file: rel(&summary_path),
                            line,
                            message: format!(
                                "chapter `{title}` is listed but its file `{}` does not exist",
                                rel(&src.join(&location)).display()
                            ),
                        });
                    }
                }
            }
        },
    }

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
        check_includes(&text, dir, &mut add);
        // SUMMARY.md's links are the chapter list, checked above.
        if path != summary_path {
            check_markdown(&text, dir, &src, &mut add);
        }
        for (offset, tex, display) in math_spans(&text) {
            let opts = if display { &display_opts } else { &inline_opts };
            if let Err(e) = katex::render_with_opts(tex, opts) {
                let e = e.to_string();
                let e = e.strip_prefix("failed to execute js (detail: ").unwrap_or(&e);
                let e = e.strip_suffix(')').unwrap_or(e);
                add(offset, format!("formula `{}` does not render: {e}", tex.trim()));
            }
        }
    }
    problems.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    Ok(problems)
}

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut files = Vec::new();
    all_files(dir, &mut files)?;
    out.extend(files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "md")));
    Ok(())
}

struct LineIndex(Vec<usize>);

impl LineIndex {
    fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex(starts)
    }
    /// 1-based line of a byte offset.
    fn line(&self, offset: usize) -> usize {
        self.0.partition_point(|&s| s <= offset)
    }
}

/// The same pattern mdBook's `links` preprocessor uses.
static LINK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        \\\{\{\#.*\}\}          # escaped link: not expanded
        |
        \{\{\s*\#([a-zA-Z0-9_]+)\s+([^}]+)\}\}",
    )
    .unwrap()
});
static ANCHOR_START: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"ANCHOR:\s*(?P<name>[\w_-]+)").unwrap());
static ANCHOR_END: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"ANCHOR_END:\s*(?P<name>[\w_-]+)").unwrap());

fn check_includes(text: &str, dir: &Path, add: &mut impl FnMut(usize, String)) {
    for cap in LINK.captures_iter(text) {
        let (Some(kind), Some(target)) = (cap.get(1), cap.get(2)) else {
            continue;
        };
        let kind = kind.as_str();
        if kind != "include" && kind != "rustdoc_include" {
            continue;
        }
        let offset = cap.get(0).unwrap().start();
        let target = target.as_str().split_whitespace().next().unwrap_or("");
        let (file, selector) = match target.split_once(':') {
            Some((f, s)) => (f, Some(s)),
            None => (target, None),
        };
        let path = dir.join(file);
        let contents = match std::fs::read_to_string(&path) {
            Ok(c) => c,
            Err(_) => {
                add(offset, format!("`{{{{#{kind} {target}}}}}`: file `{file}` does not exist"));
                continue;
            }
        };
        let Some(selector) = selector else { continue };
        let first = selector.split(':').next().unwrap_or("");
        if first.is_empty() || first.parse::<usize>().is_ok() {
            // A line range `start:end`; the start must be inside the file.
            let start = first.parse::<usize>().unwrap_or(1);
            let n = contents.lines().count();
            if start > n {
                add(offset, format!("`{{{{#{kind} {target}}}}}`: `{file}` has only {n} lines"));
            }
            continue;
        }
        let anchor = first;
        let has = |re: &Regex| {
            contents.lines().any(|l| re.captures(l).is_some_and(|c| &c["name"] == anchor))
        };
        let (start, end) = (has(&ANCHOR_START), has(&ANCHOR_END));
        if !start || !end {
            let missing = match (start, end) {
                (false, false) => format!("`ANCHOR: {anchor}` and `ANCHOR_END: {anchor}`"),
                (false, true) => format!("`ANCHOR: {anchor}`"),
                _ => format!("`ANCHOR_END: {anchor}`"),
            };
            add(
                offset,
                format!("`{{{{#{kind} {target}}}}}`: anchor `{anchor}` not found, `{file}` has no {missing}"),
            );
        }
    }
}

fn is_include_line(line: &str) -> bool {
    static INCLUDE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\{\{\s*#(include|rustdoc_include)\s+[^}]+\}\}$").unwrap());
    INCLUDE.is_match(line.trim())
}

fn is_external(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    lower.starts_with("//") || lower.contains("://")
}

fn has_scheme(url: &str) -> bool {
    // `mailto:`, `data:`, `https://`, ...
    url.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
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

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
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

fn check_markdown(text: &str, dir: &Path, src: &Path, add: &mut impl FnMut(usize, String)) {
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

fn count_mermaid(text: &str) -> usize {
    Parser::new(text)
        .filter(|e| {
            matches!(e, Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                if info.split([',', ' ']).next() == Some("mermaid"))
        })
        .count()
}

/// Builds the book in `<root>/book` into `<root>/book/build` and returns that folder.
///
/// Runs [`check_sources`] first and [`check_output`] after, so a broken include, a formula that
/// does not render or a resource from a CDN fails the build.
pub fn build(root: &Path) -> Result<PathBuf> {
    check_sources(root)?;
    let book = book_dir(root);
    let mut md = MDBook::load(&book)
        .with_context(|| format!("cannot load the book in {}", book.display()))?;
    // `book.toml` declares both preprocessors (so a stock `mdbook` with the plugins installed
    // builds the same book); here they run in-process instead of as external commands.
    md.with_preprocessor(KatexProcessor);
    md.with_preprocessor(Mermaid);
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

/// Checks the rendered HTML in `dir`: no `<script>`, `<link>`, `<img>`, … and no CSS `url()` /
/// `@import` loads anything from another host, and no `$$` (unrendered display math) is left in
/// the visible text of any page.
pub fn check_output(dir: &Path) -> Result<Vec<Problem>> {
    static TAG: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?is)<(script|link|img|iframe|source|audio|video|embed|object)\b[^>]*>")
            .unwrap()
    });
    static ATTR: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?i)\s(src|href|data|srcset)\s*=\s*(?:"([^"]*)"|'([^']*)')"#).unwrap()
    });
    static CSS_URL: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"(?i)(?:url\(\s*["']?|@import\s+["'])([^"')\s]+)"#).unwrap());
    let mut files = Vec::new();
    all_files(dir, &mut files)?;
    let mut problems = Vec::new();
    for path in files {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if ext != "html" && ext != "css" {
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let lines = LineIndex::new(&text);
        let file = path.strip_prefix(dir).unwrap_or(&path).to_path_buf();
        let mut add = |offset: usize, message: String| {
            problems.push(Problem { file: file.clone(), line: lines.line(offset), message });
        };
        if ext == "css" {
            for cap in CSS_URL.captures_iter(&text) {
                if is_external(&cap[1]) {
                    add(
                        cap.get(0).unwrap().start(),
                        format!("stylesheet loads `{}` from the network", &cap[1]),
                    );
                }
            }
            continue;
        }
        for tag in TAG.captures_iter(&text) {
            let whole = tag.get(0).unwrap();
            for attr in ATTR.captures_iter(whole.as_str()) {
                let url = attr.get(2).or(attr.get(3)).map_or("", |m| m.as_str());
                if is_external(url) {
                    add(whole.start(), format!("<{}> loads `{url}` from the network", &tag[1]));
                }
            }
        }
        let visible = visible_text(&text);
        if let Some(i) = visible.find("$$") {
            let context: String = visible[i.saturating_sub(40)..].chars().take(100).collect();
            add(
                0,
                format!("unrendered display math (`$$`) in the page text: …{}…", context.trim()),
            );
        }
    }
    Ok(problems)
}

/// The text a reader sees: tags, scripts, styles and code removed.
pub fn visible_text(html: &str) -> String {
    static HIDDEN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?is)<script\b.*?</script>|<style\b.*?</style>|<pre\b.*?</pre>|<code\b.*?</code>|<!--.*?-->")
            .unwrap()
    });
    static TAGS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)<[^>]*>").unwrap());
    let text = HIDDEN.replace_all(html, " ");
    TAGS.replace_all(&text, "").into_owned()
}

fn all_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .collect::<std::io::Result<_>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        if path.is_dir() {
            all_files(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Serving
//
// A deliberately small static-file server on `std::net`: one thread per connection, one request
// per connection (`Connection: close`), GET and HEAD only. Closing every connection keeps page
// loads predictable: a server that parks idle keep-alive connections on a bounded pool (as
// tiny_http 0.12 does) can leave chromium waiting for a stylesheet until another connection
// closes.

/// Builds the book, then serves it on `addr` (e.g. `127.0.0.1:3000`) until the process is
/// stopped. Prints the URL to open.
pub fn serve(root: &Path, addr: &str) -> Result<()> {
    let dir = build(root)?;
    let listener = TcpListener::bind(addr).with_context(|| format!("cannot listen on {addr}"))?;
    let url = format!("http://{}/", listener.local_addr()?);
    println!("Serving the book from {} at {url} (Ctrl-C to stop)", dir.display());
    accept_loop(listener, dir, Arc::new(AtomicBool::new(false)));
    Ok(())
}

/// A server started by [`serve_in_background`]; it stops when dropped (or with [`Self::stop`]).
pub struct ServerHandle {
    url: String,
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

impl ServerHandle {
    /// The base URL, `http://127.0.0.1:<port>/`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Stops accepting connections and waits for the accept thread.
    pub fn stop(self) {}
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the blocking `accept`.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

/// Serves the already rendered book in `dir` on 127.0.0.1 with an ephemeral port, on background
/// threads. Returns the base URL (`http://127.0.0.1:<port>/`, ending in `/`) and the handle that
/// keeps the server alive.
pub fn serve_in_background(dir: &Path) -> Result<(String, ServerHandle)> {
    if !dir.join("index.html").is_file() {
        bail!("{} has no index.html; build the book first", dir.display());
    }
    let listener = TcpListener::bind("127.0.0.1:0").context("cannot listen on 127.0.0.1")?;
    let addr = listener.local_addr()?;
    let url = format!("http://{addr}/");
    let stop = Arc::new(AtomicBool::new(false));
    let (dir, flag) = (dir.to_path_buf(), stop.clone());
    let acceptor = std::thread::spawn(move || accept_loop(listener, dir, flag));
    let handle = ServerHandle { url: url.clone(), addr, stop, acceptor: Some(acceptor) };
    Ok((url, handle))
}

fn accept_loop(listener: TcpListener, dir: PathBuf, stop: Arc<AtomicBool>) {
    for stream in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else { continue };
        let dir = dir.clone();
        std::thread::spawn(move || {
            let _ = handle_connection(stream, &dir);
        });
    }
}

fn handle_connection(mut stream: TcpStream, dir: &Path) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_write_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    if reader.read_line(&mut request_line)? == 0 {
        return Ok(()); // connected and closed without a request
    }
    // Headers are not needed; read up to the blank line so the client sees a clean close.
    for _ in 0..200 {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
    }
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or("");
    let target = parts.next().unwrap_or("/");
    let reply = route(method, target, dir);
    if std::env::var_os("BOOKBUILD_DEBUG").is_some() {
        eprintln!("{method} {target} -> {}", reply.status);
    }
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n",
        reply.status,
        reason(reply.status),
        reply.body.len()
    );
    for (name, value) in &reply.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    if method != "HEAD" {
        stream.write_all(&reply.body)?;
    }
    stream.flush()?;
    let _ = stream.shutdown(Shutdown::Write);
    Ok(())
}

/// The answer to one request.
#[derive(Debug, PartialEq, Eq)]
struct Reply {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        _ => "",
    }
}

fn route(method: &str, target: &str, dir: &Path) -> Reply {
    let text = |status: u16, msg: &str| Reply {
        status,
        headers: vec![("Content-Type", "text/plain; charset=utf-8".into())],
        body: msg.as_bytes().to_vec(),
    };
    if method != "GET" && method != "HEAD" {
        let mut reply = text(405, "only GET and HEAD");
        reply.headers.push(("Allow", "GET, HEAD".into()));
        return reply;
    }
    let url_path = target.split(['?', '#']).next().unwrap_or("/");
    let Some(mut file) = resolve(dir, url_path) else {
        return text(400, "bad path");
    };
    if file.is_dir() {
        if !url_path.ends_with('/') {
            // Relative links inside the page need the trailing slash.
            return Reply {
                status: 301,
                headers: vec![("Location", format!("{url_path}/"))],
                body: Vec::new(),
            };
        }
        file.push("index.html");
    }
    let (status, file) = if file.is_file() { (200, file) } else { (404, dir.join("404.html")) };
    match std::fs::read(&file) {
        Ok(body) => {
            Reply { status, headers: vec![("Content-Type", content_type(&file).into())], body }
        }
        Err(_) => text(404, "not found"),
    }
}

/// The `Content-Type` for a file name.
pub fn content_type(path: &Path) -> &'static str {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "ttf" => "font/ttf",
        "otf" => "font/otf",
        "txt" | "md" => "text/plain; charset=utf-8",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

/// Maps a request path onto a file in `dir`; `None` for paths that try to leave it.
fn resolve(dir: &Path, url_path: &str) -> Option<PathBuf> {
    let decoded = percent_decode(url_path);
    let mut path = dir.to_path_buf();
    for part in decoded.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            p if p.contains('\\') || p.contains('\0') => return None,
            p => path.push(p),
        }
    }
    Some(path)
}

#[cfg(test)]
mod dedent_tests {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_index_is_one_based() {
        let idx = LineIndex::new("a\nbc\n\nd");
        assert_eq!(idx.line(0), 1);
        assert_eq!(idx.line(2), 2);
        assert_eq!(idx.line(5), 3);
        assert_eq!(idx.line(6), 4);
    }

    #[test]
    fn include_lines() {
        assert!(is_include_line("{{#include ../../chapters/x/src/lib.rs:attn}}"));
        assert!(is_include_line("  {{#rustdoc_include a.rs}}  "));
        assert!(!is_include_line("fn main() {}"));
        assert!(!is_include_line("{{#include a.rs}} // trailing"));
    }

    #[test]
    fn requests_cannot_leave_the_folder() {
        let dir = Path::new("/srv/book");
        assert_eq!(resolve(dir, "/a/b.html"), Some(dir.join("a").join("b.html")));
        assert_eq!(resolve(dir, "/a%20b.html"), Some(dir.join("a b.html")));
        assert_eq!(resolve(dir, "/../etc/passwd"), None);
        assert_eq!(resolve(dir, "/%2e%2e/etc/passwd"), None);
    }

    #[test]
    fn math_spans_are_found() {
        let spans = math_spans("a $x$ b\n\n$$\ny^2\n$$\n\n`$not math$`");
        assert_eq!(spans.len(), 2);
        assert_eq!(spans[0], (3, "x", false));
        assert!(spans[1].2);
    }

    #[test]
    fn routes() {
        let dir = tempdir("routes");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("index.html"), "home").unwrap();
        std::fs::write(dir.join("404.html"), "lost").unwrap();
        std::fs::write(dir.join("sub/index.html"), "sub").unwrap();
        std::fs::write(dir.join("a.css"), "css").unwrap();
        let get = |t: &str| route("GET", t, &dir);
        assert_eq!(get("/").body, b"home");
        assert_eq!(
            get("/a.css?v=1").headers,
            vec![("Content-Type", "text/css; charset=utf-8".to_string())]
        );
        assert_eq!(get("/sub").status, 301);
        assert_eq!(get("/sub").headers, vec![("Location", "/sub/".to_string())]);
        assert_eq!(get("/sub/").body, b"sub");
        let missing = get("/nope.html");
        assert_eq!((missing.status, missing.body.as_slice()), (404, b"lost".as_slice()));
        assert_eq!(get("/../x").status, 400);
        assert_eq!(route("POST", "/", &dir).status, 405);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn tempdir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bookbuild-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn serves_over_http() {
        let dir = tempdir("http");
        std::fs::write(dir.join("index.html"), "<p>hi</p>").unwrap();
        let (url, handle) = serve_in_background(&dir).unwrap();
        assert!(url.starts_with("http://127.0.0.1:") && url.ends_with('/'));
        let addr = url.trim_start_matches("http://").trim_end_matches('/');
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut response = String::new();
        std::io::Read::read_to_string(&mut stream, &mut response).unwrap();
        assert!(response.starts_with("HTTP/1.1 200 OK\r\n"), "{response}");
        assert!(response.contains("Content-Type: text/html; charset=utf-8\r\n"), "{response}");
        assert!(response.ends_with("\r\n\r\n<p>hi</p>"), "{response}");
        handle.stop();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn content_types() {
        assert_eq!(content_type(Path::new("a.woff2")), "font/woff2");
        assert_eq!(content_type(Path::new("a.svg")), "image/svg+xml");
        assert_eq!(content_type(Path::new("x/index.html")), "text/html; charset=utf-8");
    }
}

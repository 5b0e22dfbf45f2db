//! The book's sources are valid and it renders offline: includes resolve, no uncompiled Rust,
//! math rendered at build time, diagrams handed to the bundled mermaid.js, nothing from a CDN.
//!
//! These tests need no browser; `browser.rs` opens the rendered pages in chromium. That
//! `SUMMARY.md` lists every chapter's page in order is checked by `layout.rs`.

use regex::Regex;
use std::fs;
use std::path::{Path, PathBuf};
use workspace_tools::workspace_root;

#[test]
fn real_book_sources_are_valid() {
    if let Err(e) = bookbuild::check_sources(&workspace_root()) {
        panic!("{e:#}");
    }
}

#[test]
fn book_toml_keeps_everything_offline() {
    let toml = fs::read_to_string(workspace_root().join("book/book.toml")).unwrap();
    assert!(toml.contains("title = \"Attention in Rust\""));
    assert!(toml.contains("no-css = true"), "KaTeX must not link its CSS from a CDN");
    assert!(toml.contains("runnable = false"), "no playground buttons");
    assert!(toml.contains("edition = \"2021\""));
    assert!(!toml.contains("mathjax-support = true"), "MathJax loads from a CDN");
}

// ---------------------------------------------------------------------------------------------
// The checker catches what it must catch.

/// A throwaway workspace root holding a small book.
struct TempBook {
    dir: tempfile::TempDir,
}

impl TempBook {
    /// A valid book with one chapter that includes an anchored listing and shows a figure.
    fn new() -> Self {
        let book = TempBook { dir: tempfile::tempdir().unwrap() };
        book.write("book/book.toml", "[book]\ntitle = \"t\"\n[build]\ncreate-missing = false\n");
        book.write("book/src/katex/katex.min.css", "/* no fonts */\n");
        book.write("book/src/SUMMARY.md", "# Summary\n\n- [One](one.md)\n");
        book.write(
            "code/lib.rs",
            "// ANCHOR: add\npub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n// ANCHOR_END: add\n",
        );
        book.write("book/src/figures/plot.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n");
        book.write(
            "book/src/one.md",
            "# One\n\nSome math: $a + b$.\n\n```rust\n{{#include ../../code/lib.rs:add}}\n```\n\n\
             ![a plot](figures/plot.svg)\n",
        );
        book
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn write(&self, rel: &str, contents: &str) {
        let path = self.dir.path().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }

    fn add_chapter(&self, file: &str, contents: &str) {
        let summary = self.dir.path().join("book/src/SUMMARY.md");
        let mut text = fs::read_to_string(&summary).unwrap();
        text.push_str(&format!("- [{file}]({file})\n"));
        fs::write(&summary, text).unwrap();
        self.write(&format!("book/src/{file}"), contents);
    }

    /// The checker's error message (panics if it passes).
    fn error(&self) -> String {
        match bookbuild::check_sources(self.root()) {
            Ok(()) => panic!("the checker accepted a broken book"),
            Err(e) => format!("{e:#}"),
        }
    }
}

#[test]
fn checker_accepts_a_valid_book() {
    let book = TempBook::new();
    bookbuild::check_sources(book.root()).unwrap();
}

#[test]
fn checker_reports_a_missing_include_file() {
    let book = TempBook::new();
    book.add_chapter("two.md", "# Two\n\n```rust\n{{#include ../../code/missing.rs:add}}\n```\n");
    let err = book.error();
    assert!(err.contains("two.md:4:"), "{err}");
    assert!(err.contains("file `../../code/missing.rs` does not exist"), "{err}");
}

#[test]
fn checker_reports_a_missing_anchor() {
    let book = TempBook::new();
    book.write("code/half.rs", "// ANCHOR: half\nfn half() {}\n");
    book.add_chapter(
        "two.md",
        "# Two\n\n```rust\n{{#include ../../code/lib.rs:nope}}\n```\n\n\
         ```rust\n{{#rustdoc_include ../../code/half.rs:half}}\n```\n",
    );
    let err = book.error();
    assert!(err.contains("anchor `nope` not found"), "{err}");
    assert!(err.contains("`ANCHOR: nope` and `ANCHOR_END: nope`"), "{err}");
    assert!(
        err.contains("anchor `half` not found, `../../code/half.rs` has no `ANCHOR_END: half`"),
        "{err}"
    );
}

#[test]
fn checker_reports_a_bare_rust_block() {
    let book = TempBook::new();
    book.add_chapter(
        "two.md",
        "# Two\n\n```rust,ignore\n{{#include ../../code/lib.rs:add}}\nfn not_compiled() {}\n```\n\n\
         ```text\nfn in_a_text_block_is_fine() {}\n```\n",
    );
    let err = book.error();
    assert!(err.contains("two.md:5: ```rust block has a line that is not an {{#include}}: `fn not_compiled() {}`"), "{err}");
    assert!(!err.contains("in_a_text_block_is_fine"), "{err}");
}

#[test]
fn checker_reports_a_missing_chapter() {
    let book = TempBook::new();
    let summary = book.root().join("book/src/SUMMARY.md");
    let mut text = fs::read_to_string(&summary).unwrap();
    text.push_str("- [Ghost](ghost.md)\n");
    fs::write(&summary, text).unwrap();
    let err = book.error();
    assert!(err.contains("SUMMARY.md:4: chapter `Ghost` is listed but its file `book/src/ghost.md` does not exist"), "{err}");
}

#[test]
fn checker_reports_missing_and_remote_images() {
    let book = TempBook::new();
    book.add_chapter(
        "two.md",
        "# Two\n\n![gone](figures/gone.svg)\n\n![cdn](https://example.com/x.png)\n\n<img src=\"figures/also-gone.svg\">\n",
    );
    let err = book.error();
    assert!(err.contains("image `figures/gone.svg` does not exist"), "{err}");
    assert!(err.contains("image `https://example.com/x.png` is loaded from the network"), "{err}");
    assert!(err.contains("image `figures/also-gone.svg` does not exist"), "{err}");
}

#[test]
fn checker_reports_math_that_does_not_render() {
    let book = TempBook::new();
    book.add_chapter("two.md", "# Two\n\n$$\n\\frac{1}{\n$$\n\nFine: $x^2$.\n");
    let err = book.error();
    assert!(err.contains("two.md:3: formula `\\frac{1}{` does not render"), "{err}");
    assert!(!err.contains("x^2"), "{err}");
}

#[test]
fn checker_lists_every_problem_at_once() {
    let book = TempBook::new();
    book.add_chapter(
        "two.md",
        "# Two\n\n```rust\n{{#include ../../code/missing.rs}}\n```\n\n```rust\nlet x = 1;\n```\n\n[a link](nowhere.md)\n",
    );
    let summary = book.root().join("book/src/SUMMARY.md");
    let mut text = fs::read_to_string(&summary).unwrap();
    text.push_str("- [Ghost](ghost.md)\n");
    fs::write(&summary, text).unwrap();
    let problems = bookbuild::find_problems(book.root()).unwrap();
    let text: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(problems.len(), 4, "{text:#?}");
    let err = book.error();
    assert!(err.starts_with("4 problem(s) in the book sources:"), "{err}");
    assert!(err.contains("link `nowhere.md` does not exist"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// The real book, rendered.

fn external_resources(html: &str) -> Vec<String> {
    let tag = Regex::new(r"(?is)<(script|link|img)\b[^>]*>").unwrap();
    let attr = Regex::new(r#"(?i)\s(src|href)\s*=\s*["']([^"']*)["']"#).unwrap();
    let mut found = Vec::new();
    for t in tag.find_iter(html) {
        for a in attr.captures_iter(t.as_str()) {
            let url = a[2].to_ascii_lowercase();
            if url.starts_with("http://") || url.starts_with("https://") || url.starts_with("//") {
                found.push(t.as_str().to_string());
            }
        }
    }
    found
}

#[test]
fn real_book_renders_offline() {
    let root = workspace_root();
    let out: PathBuf = bookbuild::build(&root).unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(out, root.join("book/build"));
    let pages = bookbuild::pages(&root).unwrap();
    assert!(pages.len() >= 3, "the book has pages: {}", pages.len());
    let mut failures = Vec::new();
    // a script whose name holds `mermaid` (mdBook fingerprints names: mermaid-<hash>.min.js)
    let mermaid_script = Regex::new(r#"<script[^>]*mermaid"#).unwrap();
    let mut math_pages = 0;
    let mut mermaid_pages = 0;
    for page in &pages {
        let path = out.join(&page.html);
        let Ok(html) = fs::read_to_string(&path) else {
            failures.push(format!("{}: not rendered", page.html.display()));
            continue;
        };
        let name = page.html.display();
        if page.math > 0 {
            math_pages += 1;
            if !html.contains("class=\"katex") {
                failures.push(format!("{name}: has {} formulas but no KaTeX output", page.math));
            }
        }
        if bookbuild::visible_text(&html).contains("$$") {
            failures.push(format!("{name}: `$$` left in the rendered text"));
        }
        let mermaid = html.matches("<div class=\"diagram\">").count();
        if mermaid != page.mermaid {
            failures.push(format!(
                "{name}: {} mermaid blocks in markdown, {mermaid} drawn diagrams in HTML",
                page.mermaid
            ));
        }
        mermaid_pages += usize::from(page.mermaid > 0);
        if html.contains("```mermaid") || html.contains("language-mermaid") {
            failures.push(format!("{name}: a mermaid block was rendered as code"));
        }
        for tag in external_resources(&html) {
            failures.push(format!("{name}: loads from the network: {tag}"));
        }
        if !html.contains("katex/katex.min.css") {
            failures.push(format!("{name}: does not link the bundled KaTeX stylesheet"));
        }
        if mermaid_script.is_match(&html) || html.contains("<pre class=\"mermaid\">") {
            failures.push(format!("{name}: runs mermaid.js instead of showing the drawings"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The book has math and diagrams (at least in the drafts), so the checks above bit.
    assert!(
        math_pages > 0 && mermaid_pages > 0,
        "math pages: {math_pages}, mermaid pages: {mermaid_pages}"
    );
    // The assets the pages rely on were copied.
    assert!(out.join("katex/katex.min.css").is_file());
    assert!(out.join("katex/fonts/KaTeX_Main-Regular.woff2").is_file());
    assert!(out.join("index.html").is_file());
    assert!(
        fs::read_dir(&out)
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("searchindex")),
        "search index missing"
    );
    let problems = bookbuild::check_output(&out).unwrap();
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Every diagram of the book has its drawings committed (`cargo xtask diagrams` makes them), each
/// drawn for its key, and no drawing is left that no page uses.
#[test]
fn every_diagram_is_drawn_and_every_drawing_used() {
    use bookbuild::diagrams::{key, mermaid_blocks, svg_path, DIAGRAMS, MERMAID, THEMES};
    let root = workspace_root();
    let js = fs::read(root.join(MERMAID)).unwrap();
    let mut wanted = std::collections::BTreeSet::new();
    for page in bookbuild::pages(&root).unwrap() {
        let text = fs::read_to_string(root.join("book/src").join(&page.source)).unwrap();
        for (_, source) in mermaid_blocks(&text) {
            for theme in THEMES {
                let key = key(&js, theme, &source);
                let svg = fs::read_to_string(svg_path(&root, &key)).unwrap_or_else(|_| {
                    panic!("{}: no {theme} drawing: run `cargo xtask diagrams`", page.title)
                });
                assert!(
                    svg.starts_with("<svg") && svg.contains(&format!("id=\"d{key}\"")),
                    "{DIAGRAMS}/{key}.svg is not the drawing of its key"
                );
                wanted.insert(format!("{key}.svg"));
            }
        }
    }
    assert!(!wanted.is_empty(), "the book has diagrams, so this check bit");
    for entry in fs::read_dir(root.join(DIAGRAMS)).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        assert!(
            wanted.contains(&name),
            "{DIAGRAMS}/{name}: no page uses it (`cargo xtask diagrams` removes it)"
        );
    }
}

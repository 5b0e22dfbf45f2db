//! `cargo xtask new-chapter NN-slug "Title"`: a new chapter that passes every workspace check as
//! created. It writes the crate (`Cargo.toml`, `src/lib.rs` with one anchored function,
//! `src/figures.rs` with one placeholder figure and the example `examples/chNN-figures.rs` that
//! draws it into the book, `tests/main.rs` with `tests/worked_examples.rs` and its first
//! `worked_example_*` test, and `tests/figures.rs`), the page that includes the function and names
//! the test, the notebook, and one line each in `SUMMARY.md`, README's chapter table, the
//! introduction's and the top-level `[workspace.dependencies]`, after the last chapter's.

mod templates;

use crate::{Chapter, Slug};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use templates::Names;

/// Scaffolds chapter `slug` titled `title` in the workspace at `root`; returns the files it wrote
/// or changed, relative to `root`. Checks everything before it writes anything: `slug` must be a
/// chapter slug numbered one past the last chapter, with no crate, page or notebook yet, and
/// `title` one line that fits in a table cell, a link and a TOML string.
pub fn new_chapter(root: &Path, slug: &str, title: &str) -> Result<Vec<PathBuf>> {
    let slug = Slug::parse(slug)?;
    check_title(title)?;
    let chapters = Chapter::all(root)?;
    let Some(last) = chapters.last() else {
        bail!("there is no chapter yet to place the new one after");
    };
    if let Some(same) = chapters.iter().find(|c| c.number() == slug.number()) {
        bail!("chapter {:02} exists already: chapters/{}", slug.number(), same.slug);
    }
    if slug.number() != last.number() + 1 {
        bail!(
            "the chapters run 01 to {:02}, so a new chapter is number {:02}, not {:02}",
            last.number(),
            last.number() + 1,
            slug.number()
        );
    }
    let names = Names { slug: &slug, title };
    let figures_example = format!("chapters/{slug}/examples/{}.rs", names.figures_example());
    let files: Vec<(PathBuf, String)> = vec![
        (format!("chapters/{slug}/Cargo.toml").into(), names.manifest()),
        (format!("chapters/{slug}/src/lib.rs").into(), names.lib()),
        (format!("chapters/{slug}/src/figures.rs").into(), names.figures()),
        (figures_example.into(), names.figures_main()),
        (format!("chapters/{slug}/tests/main.rs").into(), names.test_main()),
        (format!("chapters/{slug}/tests/worked_examples.rs").into(), names.worked_examples()),
        (format!("chapters/{slug}/tests/figures.rs").into(), names.figures_test()),
        (format!("book/src/{slug}.md").into(), names.page()),
        (format!("notebooks/{slug}.ipynb").into(), notebook_text(&names)?),
    ];
    for (path, _) in &files {
        if root.join(path).exists() {
            bail!("{} exists already", path.display());
        }
    }
    let last_page = format!("]({}.md)", last.slug);
    let summary = "book/src/SUMMARY.md";
    let summary_text = read(root, summary)?;
    let marker = summary_text
        .lines()
        .find(|l| l.contains(&last_page))
        .and_then(|l| l.split_once('['))
        .map_or("1. ", |(marker, _)| marker);
    let edits: Vec<(&str, String)> = vec![
        (summary, insert_after(summary, &summary_text, &last_page, &names.summary_line(marker))?),
        ("README.md", {
            let text = read(root, "README.md")?;
            let row = format!("`{}`", last.package);
            insert_after("README.md", &text, &row, &names.readme_row())?
        }),
        ("book/src/introduction.md", {
            let text = read(root, "book/src/introduction.md")?;
            insert_after("book/src/introduction.md", &text, &last_page, &names.introduction_row())?
        }),
        ("Cargo.toml", {
            let text = read(root, "Cargo.toml")?;
            add_workspace_dependency(&text, &slug, &names.workspace_dependency())?
        }),
    ];
    let mut written = Vec::new();
    for (path, text) in files {
        let full = root.join(&path);
        std::fs::create_dir_all(full.parent().context("a file has a folder")?)?;
        std::fs::write(&full, text).with_context(|| format!("writing {}", path.display()))?;
        written.push(path);
    }
    for (path, text) in edits {
        std::fs::write(root.join(path), text).with_context(|| format!("writing {path}"))?;
        written.push(path.into());
    }
    Ok(written)
}

fn check_title(title: &str) -> Result<()> {
    if title.trim().is_empty() || title.trim() != title {
        bail!("the title {title:?} is empty or starts or ends with a space");
    }
    if let Some(c) = title.chars().find(|c| "|[]`\"\\".contains(*c) || c.is_control()) {
        bail!(
            "the title {title:?} has {c:?}, which would break a table row, a link or a TOML string"
        );
    }
    Ok(())
}

fn read(root: &Path, path: &str) -> Result<String> {
    std::fs::read_to_string(root.join(path)).with_context(|| format!("reading {path}"))
}

/// `text` with `line` inserted after the first table row or list line that contains `after`.
fn insert_after(file: &str, text: &str, after: &str, line: &str) -> Result<String> {
    let Some(i) = text.lines().position(|l| l.contains(after)) else {
        bail!("{file} has no line with {after:?} to add the new chapter's line after");
    };
    Ok(insert_line(text, i + 1, line))
}

/// The top-level `Cargo.toml` with `line` (the crate of `slug`) in `[workspace.dependencies]`,
/// after the last chapter crate's line there.
fn add_workspace_dependency(text: &str, slug: &Slug, line: &str) -> Result<String> {
    let section = "[workspace.dependencies]";
    let Some(start) = text.lines().position(|l| l.trim() == section) else {
        bail!("Cargo.toml has no {section} to add the new chapter's crate to");
    };
    let keys: Vec<&str> = text
        .lines()
        .skip(start + 1)
        .take_while(|l| !l.starts_with('['))
        .map(|l| l.split_once('=').map_or("", |(key, _)| key.trim()))
        .collect();
    if keys.contains(&slug.package().as_str()) {
        bail!("Cargo.toml lists `{}` in {section} already", slug.package());
    }
    let chapter = |key: &&str| key.strip_prefix("ch").is_some_and(|s| Slug::parse(s).is_ok());
    let Some(last) = keys.iter().rposition(chapter) else {
        bail!("Cargo.toml lists no chapter crate in {section} to add the new one after");
    };
    Ok(insert_line(text, start + 1 + last + 1, line))
}

/// `text` with `line` inserted as its line `i` (0-based), keeping a final newline.
fn insert_line(text: &str, i: usize, line: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(i, line);
    let mut out = lines.join("\n");
    if text.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// The notebook as nbformat writes it: one-space indents, a final newline.
fn notebook_text(names: &Names<'_>) -> Result<String> {
    let mut bytes = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b" ");
    let mut ser = serde_json::Serializer::with_formatter(&mut bytes, formatter);
    serde::Serialize::serialize(&names.notebook(), &mut ser)?;
    bytes.push(b'\n');
    Ok(String::from_utf8(bytes)?)
}

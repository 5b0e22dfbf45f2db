//! Every chapter's parts share its slug, and the chapter is listed wherever a reader looks for
//! chapters; its library compiles a unit-test harness only when it has unit tests. Each function
//! returns the problems it finds, one sentence each, naming the file to fix; an empty list means
//! the layout holds. [`problems`] runs them all.

use crate::Chapter;
use anyhow::Result;
use std::collections::BTreeSet;
use std::path::Path;

/// Every problem the functions below find.
pub fn problems(root: &Path) -> Result<Vec<String>> {
    let mut out = names(root)?;
    out.extend(summary(root)?);
    out.extend(readme_rows(root)?);
    out.extend(introduction_rows(root)?);
    out.extend(lib_test_harness(root)?);
    Ok(out)
}

/// Chapters are numbered 01, 02, ... without a gap; the package of `chapters/<slug>` is
/// `ch<slug>`, its page is `book/src/<slug>.md` and its notebook `notebooks/<slug>.ipynb`; and
/// every numbered page and every notebook belongs to a chapter of the same slug.
pub fn names(root: &Path) -> Result<Vec<String>> {
    let chapters = Chapter::all(root)?;
    let mut out = Vec::new();
    for (i, ch) in chapters.iter().enumerate() {
        let slug = &ch.slug;
        if ch.number() as usize != i + 1 {
            out.push(format!("chapters/{slug}: chapter {} is numbered {:02}", i + 1, ch.number()));
        }
        if ch.package != slug.package() {
            out.push(format!(
                "chapters/{slug}/Cargo.toml: the package is `{}`, expected `{}` (`ch` and the \
                 folder's name)",
                ch.package,
                slug.package()
            ));
        }
        if !ch.page.is_file() {
            out.push(format!("chapters/{slug} has no page book/src/{slug}.md"));
        }
        if !ch.notebook.is_file() {
            out.push(format!("chapters/{slug} has no notebook notebooks/{slug}.ipynb"));
        }
    }
    let slugs: BTreeSet<&str> = chapters.iter().map(|c| c.slug.as_str()).collect();
    let chapter_pages = stems(&root.join("book/src"), "md")?
        .into_iter()
        .filter(|s| s.starts_with(|c: char| c.is_ascii_digit()));
    for stem in chapter_pages {
        if !slugs.contains(stem.as_str()) {
            out.push(format!(
                "book/src/{stem}.md is no chapter's page: there is no chapters/{stem}/"
            ));
        }
    }
    for stem in stems(&root.join("notebooks"), "ipynb")? {
        if !slugs.contains(stem.as_str()) {
            out.push(format!(
                "notebooks/{stem}.ipynb is no chapter's notebook: there is no chapters/{stem}/"
            ));
        }
    }
    Ok(out)
}

/// `SUMMARY.md` lists the introduction, then every chapter's page in chapter order, then the
/// references.
pub fn summary(root: &Path) -> Result<Vec<String>> {
    let listed: Vec<String> =
        bookbuild::pages(root)?.iter().map(|p| p.source.display().to_string()).collect();
    let mut want = vec!["introduction.md".to_string()];
    want.extend(Chapter::all(root)?.iter().map(|c| format!("{}.md", c.slug)));
    want.push("references.md".into());
    if listed == want {
        Ok(Vec::new())
    } else {
        Ok(vec![format!(
            "book/src/SUMMARY.md lists {listed:?}, expected the introduction, the chapters' \
             pages in order and the references: {want:?}"
        )])
    }
}

/// README's chapter table has a row for every chapter, naming its crate, and its last column
/// lists exactly the chapter's example programs.
pub fn readme_rows(root: &Path) -> Result<Vec<String>> {
    let readme = std::fs::read_to_string(root.join("README.md"))?;
    let mut out = Vec::new();
    for ch in Chapter::all(root)? {
        let package = &ch.package;
        let Some(row) = table_row(&readme, &format!("`{package}`")) else {
            out.push(format!("README.md: the chapter table has no row for `{package}`"));
            continue;
        };
        let listed: BTreeSet<String> = row
            .rsplit('|')
            .nth(1)
            .unwrap_or("")
            .split(',')
            .map(|s| s.trim().trim_matches('`').to_string())
            .filter(|s| !s.is_empty())
            .collect();
        let examples = ch.examples();
        if listed != examples {
            out.push(format!(
                "README.md: the row of `{package}` lists the examples {listed:?}, the crate has \
                 {examples:?}"
            ));
        }
    }
    Ok(out)
}

/// The introduction's chapter table has a row for every chapter that links its page and names its
/// crate.
pub fn introduction_rows(root: &Path) -> Result<Vec<String>> {
    let intro = std::fs::read_to_string(root.join("book/src/introduction.md"))?;
    let mut out = Vec::new();
    for ch in Chapter::all(root)? {
        let link = format!("]({}.md)", ch.slug);
        match table_row(&intro, &link) {
            Some(row) if row.contains(&format!("`{}`", ch.package)) => {}
            Some(_) => out.push(format!(
                "book/src/introduction.md: the row linking {}.md does not name `{}`",
                ch.slug, ch.package
            )),
            None => out.push(format!(
                "book/src/introduction.md: the chapter table has no row linking {}.md",
                ch.slug
            )),
        }
    }
    Ok(out)
}

/// The first line of a Markdown table in `text` that contains `needle`.
fn table_row<'a>(text: &'a str, needle: &str) -> Option<&'a str> {
    text.lines().find(|l| l.starts_with("| ") && l.contains(needle))
}

/// The file stems of the files `*.ext` directly in `dir`, sorted.
fn stems(dir: &Path, ext: &str) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_file() && path.extension().is_some_and(|e| e == ext) {
            out.push(path.file_stem().unwrap_or_default().to_string_lossy().to_string());
        }
    }
    out.sort();
    Ok(out)
}

/// A chapter's library has a unit-test harness (cargo's default) exactly when `src/` holds a unit
/// test: `test = false` in its `[lib]` then saves the harness's compiling and linking in every test
/// build, and can never hide a test, since a library with one must not say it.
pub fn lib_test_harness(root: &Path) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for ch in Chapter::all(root)? {
        let manifest = std::fs::read_to_string(ch.dir.join("Cargo.toml"))?;
        let no_harness = manifest
            .split("\n[lib]")
            .nth(1)
            .map(|t| t.split("\n[").next().unwrap_or(""))
            .is_some_and(|t| t.lines().any(|l| l.replace(' ', "") == "test=false"));
        let tested = has_unit_test(&ch.dir.join("src"))?;
        let slug = &ch.slug;
        if tested && no_harness {
            out.push(format!(
                "chapters/{slug}/Cargo.toml: `[lib] test = false`, but src/ has unit tests, \
                 which would never run: remove the line"
            ));
        }
        if !tested && !no_harness {
            out.push(format!(
                "chapters/{slug}/Cargo.toml: src/ has no unit test; say `test = false` in \
                 `[lib]`, so that no empty test harness is compiled"
            ));
        }
    }
    Ok(out)
}

/// Whether a `.rs` file below `dir` has a `#[test]`, a `#[cfg(test)]` module or a `proptest!`.
fn has_unit_test(dir: &Path) -> Result<bool> {
    for path in crate::files_under(dir)? {
        if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path)?;
            if ["#[test]", "#[cfg(test)]", "proptest!"].iter().any(|m| text.contains(m)) {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

//! The worked-example index: every test the book names exists, and every `worked_example_*` test
//! of a chapter crate is named by the book, so a reader can always find the test behind a number.

use std::collections::BTreeSet;
use std::path::Path;
use workspace_tools::workspace_root;

fn files(dir: &Path, ext: &str, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.unwrap().path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "target") {
                files(&p, ext, out);
            }
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// Identifiers in backticks that look like test names, in the pages under `root`.
pub(crate) fn named_in_book(root: &Path) -> BTreeSet<String> {
    let mut pages = Vec::new();
    files(&root.join("book/src"), "md", &mut pages);
    let mut names = BTreeSet::new();
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        for (i, part) in text.split('`').enumerate() {
            let is_test_name =
                part.starts_with("worked_example_") || part.starts_with("parity_with_");
            if i % 2 == 1
                && is_test_name
                && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                names.insert(part.to_string());
            }
        }
    }
    names
}

/// `fn name` of every function in the chapter crates under `root`.
pub(crate) fn test_functions(root: &Path) -> BTreeSet<String> {
    let mut sources = Vec::new();
    files(&root.join("chapters"), "rs", &mut sources);
    let mut names = BTreeSet::new();
    for src in sources {
        let text = std::fs::read_to_string(&src).unwrap();
        for line in text.lines() {
            let line = line.trim_start();
            if let Some(rest) = line.strip_prefix("fn ") {
                let name: String =
                    rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                names.insert(name);
            }
        }
    }
    names
}

#[test]
fn every_test_the_book_names_exists() {
    let book = named_in_book(&workspace_root());
    assert!(book.len() >= 10, "the book names only {} tests: {book:?}", book.len());
    let tests = test_functions(&workspace_root());
    let missing: Vec<_> = book.iter().filter(|n| !tests.contains(*n)).collect();
    assert!(missing.is_empty(), "the book names tests that do not exist: {missing:?}");
}

#[test]
fn every_worked_example_test_is_named_in_the_book() {
    let book = named_in_book(&workspace_root());
    let unnamed: Vec<_> = test_functions(&workspace_root())
        .into_iter()
        .filter(|n| n.starts_with("worked_example_") && !book.contains(n))
        .collect();
    assert!(unnamed.is_empty(), "worked examples the book never mentions: {unnamed:?}");
}

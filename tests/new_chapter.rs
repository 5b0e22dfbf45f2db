//! `cargo xtask new-chapter` scaffolds a chapter that passes the workspace checks as created, and
//! refuses a bad slug, a chapter that exists and a number out of turn, writing nothing.
//!
//! The scaffold runs in a temporary copy of what the checks read (the manifests, the chapters'
//! sources, the book, the notebooks, the README); no new crate is built here. That the new crate
//! compiles and its test passes is checked by hand when the scaffold changes:
//! `cargo xtask new-chapter 10-demo "Demo" && cargo xtask check && cargo test -p ch10-demo`.

use crate::{examples_named, wording, worked_examples};
use std::path::Path;
use workspace_tools::{layout, notebook, scaffold, workspace_root, Chapter};

/// Copies `from` into `to`, leaving out build outputs.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        if path.is_dir() {
            if name != "target" && name != "build" {
                copy_tree(&path, &to.join(name));
            }
        } else {
            std::fs::copy(&path, to.join(name)).unwrap();
        }
    }
}

/// A temporary workspace holding what the checks read.
pub(crate) fn workspace_copy() -> tempfile::TempDir {
    let root = workspace_root();
    let tmp = tempfile::tempdir().unwrap();
    for dir in ["book", "chapters", "notebooks"] {
        copy_tree(&root.join(dir), &tmp.path().join(dir));
    }
    for file in ["Cargo.toml", "README.md"] {
        std::fs::copy(root.join(file), tmp.path().join(file)).unwrap();
    }
    for member in workspace_tools::manifest::member_dirs(&root).unwrap() {
        let rel = member.strip_prefix(&root).unwrap();
        if !rel.starts_with("chapters") {
            std::fs::create_dir_all(tmp.path().join(rel)).unwrap();
            std::fs::copy(member.join("Cargo.toml"), tmp.path().join(rel).join("Cargo.toml"))
                .unwrap();
        }
    }
    tmp
}

/// The number of the chapter after the last one, and a slug for it.
fn next_slug(root: &Path) -> (u32, String) {
    let next = Chapter::all(root).unwrap().len() as u32 + 1;
    (next, format!("{next:02}-demo"))
}

#[test]
fn a_scaffolded_chapter_passes_the_checks() {
    let tmp = workspace_copy();
    let root = tmp.path();
    let (_, slug) = next_slug(root);
    let written = scaffold::new_chapter(root, &slug, "Demo").unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(written.len(), 9, "{written:?}");

    let problems = layout::problems(root).unwrap();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    bookbuild::check_sources(root).unwrap_or_else(|e| panic!("{e:#}"));
    let pages = bookbuild::pages(root).unwrap();
    assert_eq!(pages[pages.len() - 2].source, Path::new(&format!("{slug}.md")));

    let chapter = Chapter::all(root).unwrap().pop().unwrap();
    let nb = notebook::read(&chapter.notebook).unwrap();
    assert_eq!(notebook::check_source(&nb).unwrap(), vec![]);
    let first_code = nb["cells"].as_array().unwrap().iter().find(|c| c["cell_type"] == "code");
    let deps = notebook::text_of(&first_code.unwrap()["source"]);
    assert!(deps.starts_with(":cache") && deps.contains(&format!(":dep {}", chapter.package)));

    // the page names its worked-example test, which exists
    let named = worked_examples::named_in_book(root);
    let tests = worked_examples::test_functions(root);
    let test = format!("worked_example_{}", &slug[3..]);
    assert!(named.contains(&test) && tests.contains(&test), "{test}: {named:?}");
    assert!(named.iter().all(|n| tests.contains(n)));

    // its commands name packages that exist, and its wording passes
    let packages = workspace_tools::manifest::packages(root).unwrap();
    let texts: Vec<String> = written
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md" || e == "ipynb"))
        .map(|p| std::fs::read_to_string(root.join(p)).unwrap())
        .collect();
    for text in &texts {
        let (_, problems) = examples_named::check("new chapter", text, &packages);
        assert!(problems.is_empty(), "{problems:?}");
        for pattern in [wording::FORBIDDEN, wording::UNINTRODUCED_GOAL] {
            assert!(!regex::Regex::new(pattern).unwrap().is_match(text), "{text}");
        }
    }
}

#[test]
fn the_scaffold_refuses_bad_input_and_writes_nothing() {
    let tmp = workspace_copy();
    let root = tmp.path();
    let (next, _) = next_slug(root);
    let last = Chapter::all(root).unwrap().pop().unwrap();
    let cases = [
        ("demo".to_string(), "Demo", "is not a chapter slug"),
        ("4-demo".to_string(), "Demo", "chapter number 01 to 99"),
        (format!("{next:02}-Demo"), "Demo", "lowercase words"),
        (format!("{:02}-again", last.number()), "Again", "exists already"),
        (format!("{:02}-later", next + 1), "Later", &format!("is number {next:02}")),
        (format!("{next:02}-demo"), "A | B", "table row"),
        (format!("{next:02}-demo"), "", "empty"),
    ];
    for (slug, title, want) in cases {
        let err = match scaffold::new_chapter(root, &slug, title) {
            Ok(files) => panic!("{slug} {title:?} was accepted: {files:?}"),
            Err(e) => format!("{e:#}"),
        };
        assert!(err.contains(want), "{slug} {title:?}: {err}");
    }
    assert_eq!(Chapter::all(root).unwrap().len() as u32, next - 1);
    let problems = layout::problems(root).unwrap();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

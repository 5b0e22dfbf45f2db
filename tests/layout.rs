//! One slug per chapter: `chapters/<slug>/` is the crate `ch<slug>`, its page is
//! `book/src/<slug>.md` and its notebook `notebooks/<slug>.ipynb`; and the chapter is listed in
//! `SUMMARY.md` and in the chapter tables of the README and the introduction. The checks are
//! `workspace_tools::layout`'s; `new_chapter.rs` runs them on a scaffolded chapter too.

use std::path::Path;
use workspace_tools::{layout, workspace_root};

fn assert_none(check: fn(&Path) -> anyhow::Result<Vec<String>>) {
    let problems = check(&workspace_root()).unwrap_or_else(|e| panic!("{e:#}"));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_part_of_a_chapter_is_named_by_its_slug() {
    assert_none(layout::names);
}

#[test]
fn summary_lists_the_chapters_in_order() {
    assert_none(layout::summary);
}

#[test]
fn readme_table_lists_every_chapter_and_its_examples() {
    assert_none(layout::readme_rows);
}

#[test]
fn introduction_table_links_every_chapter() {
    assert_none(layout::introduction_rows);
}

#[test]
fn every_chapter_library_has_a_test_harness_exactly_when_it_has_unit_tests() {
    assert_none(layout::lib_test_harness);
}

/// `test = false` on a library with a unit test would hide the test, and a library with none that
/// keeps cargo's harness compiles an empty one in every test build: both are reported by name.
#[test]
fn a_lib_harness_that_hides_a_test_or_tests_nothing_is_reported() {
    let tmp = crate::new_chapter::workspace_copy();
    let root = tmp.path();
    let chapters = workspace_tools::Chapter::all(root).unwrap();
    let (first, second) = (&chapters[0], &chapters[1]);
    let lib = first.dir.join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap();
    std::fs::write(&lib, text + "\n#[cfg(test)]\nmod t {\n    #[test]\n    fn t() {}\n}\n")
        .unwrap();
    let manifest = second.dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    assert!(text.contains("\ntest = false\n"), "{text}");
    std::fs::write(&manifest, text.replace("\ntest = false\n", "\n")).unwrap();
    let problems = layout::lib_test_harness(root).unwrap();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0]
            .starts_with(&format!("chapters/{}/Cargo.toml: `[lib] test = false`, but", first.slug)),
        "{problems:?}"
    );
    assert!(
        problems[1]
            .starts_with(&format!("chapters/{}/Cargo.toml: src/ has no unit test", second.slug)),
        "{problems:?}"
    );
}

/// A page and a notebook that keep an older, longer name fail by name, and so does a package
/// named otherwise than its folder.
#[test]
fn a_part_named_otherwise_is_reported_by_name() {
    let tmp = crate::new_chapter::workspace_copy();
    let root = tmp.path();
    let ch = workspace_tools::Chapter::all(root).unwrap().remove(0);
    let slug = ch.slug.as_str();
    let old = format!("{}-old-name", &slug[..2]);
    std::fs::rename(&ch.page, root.join(format!("book/src/{old}.md"))).unwrap();
    std::fs::rename(&ch.notebook, root.join(format!("notebooks/{old}.ipynb"))).unwrap();
    let manifest = ch.dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let renamed = text.replace(&format!("name = \"{}\"", ch.package), "name = \"ch-other\"");
    std::fs::write(&manifest, renamed).unwrap();
    let problems = layout::names(root).unwrap().join("\n");
    for want in [
        format!("chapters/{slug} has no page book/src/{slug}.md"),
        format!("chapters/{slug} has no notebook notebooks/{slug}.ipynb"),
        format!("book/src/{old}.md is no chapter's page"),
        format!("notebooks/{old}.ipynb is no chapter's notebook"),
        format!("the package is `ch-other`, expected `ch{slug}`"),
    ] {
        assert!(problems.contains(&want), "{want:?} not in:\n{problems}");
    }
}

/// Cargo builds every example of the workspace into one folder (`target/<profile>/examples/`),
/// so two chapters' examples of one name overwrite each other's program, and the book's outputs
/// could come from the wrong chapter: every example name is used once.
#[test]
fn every_example_name_is_used_once_in_the_workspace() {
    let mut seen = std::collections::BTreeMap::new();
    for ch in workspace_tools::Chapter::all(&workspace_root()).unwrap() {
        let Ok(entries) = std::fs::read_dir(ch.dir.join("examples")) else { continue };
        for entry in entries {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if let Some(other) = seen.insert(name.clone(), ch.slug.clone()) {
                panic!("examples/{name} is in both chapters/{other} and chapters/{}", ch.slug);
            }
        }
    }
    assert!(seen.len() > 40, "{} examples found", seen.len());
}

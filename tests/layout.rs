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

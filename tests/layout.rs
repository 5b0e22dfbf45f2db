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

//! Example programs: every chapter's are listed in its row of the README's chapter table
//! (`workspace_tools::layout::readme_rows`, run by `layout.rs`), and no two chapters have one of
//! the same name. (That the commands in the README name examples that exist is checked, with the
//! book's and the notebooks', by `examples_named.rs`.)

use workspace_tools::{workspace_root, Chapter};

/// Cargo writes every example to `target/<profile>/examples/<name>`: two chapters with an example
/// of one name overwrite each other's binary (cargo only warns), and the output checks could run
/// the wrong program.
#[test]
fn example_names_are_unique_across_chapters() {
    let mut seen = std::collections::BTreeMap::new();
    for chapter in Chapter::all(&workspace_root()).unwrap() {
        let package = &chapter.package;
        for example in chapter.examples() {
            if let Some(other) = seen.insert(example.clone(), package.clone()) {
                panic!("the example `{example}` exists in both {other} and {package}: rename one");
            }
        }
    }
}

//! Every example program of a chapter is listed in its row of the README's chapter table. (That the
//! commands in the README name examples that exist is checked, with the book's and the notebooks',
//! by `examples_named.rs`.)

use std::collections::BTreeSet;
use workspace_checks::{chapters, workspace_root};

#[test]
fn readme_table_lists_every_example() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    for (package, examples) in chapters() {
        let row = readme
            .lines()
            .find(|l| l.starts_with("| ") && l.contains(&format!("`{package}`")))
            .unwrap_or_else(|| panic!("README's chapter table has no row for `{package}`"));
        let listed: BTreeSet<String> = row
            .rsplit('|')
            .nth(1)
            .unwrap()
            .split(',')
            .map(|s| s.trim().trim_matches('`').to_string())
            .filter(|s| !s.is_empty())
            .collect();
        assert_eq!(listed, examples, "README's row for {package} (examples column)");
    }
}

/// Cargo writes every example to `target/<profile>/examples/<name>`: two chapters with an example
/// of one name overwrite each other's binary (cargo only warns), and the output checks could run
/// the wrong program.
#[test]
fn example_names_are_unique_across_chapters() {
    let mut seen = std::collections::BTreeMap::new();
    for (package, examples) in chapters() {
        for example in examples {
            if let Some(other) = seen.insert(example.clone(), package.clone()) {
                panic!("the example `{example}` exists in both {other} and {package}: rename one");
            }
        }
    }
}

//! The README's commands and chapter table name programs that exist, and every example program of
//! a chapter is listed in its row.

use std::collections::BTreeSet;
use workspace_checks::outputs::package_name;
use workspace_checks::workspace_root;

/// Every chapter: (package name, its example names).
fn chapters() -> Vec<(String, BTreeSet<String>)> {
    let root = workspace_root();
    let mut dirs: Vec<_> =
        std::fs::read_dir(root.join("chapters")).unwrap().map(|e| e.unwrap().path()).collect();
    dirs.sort();
    dirs.into_iter()
        .map(|dir| {
            let examples = std::fs::read_dir(dir.join("examples"))
                .map(|rd| {
                    rd.map(|e| e.unwrap().path())
                        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
                        .map(|p| p.file_stem().unwrap().to_string_lossy().to_string())
                        .collect()
                })
                .unwrap_or_default();
            (package_name(&dir).unwrap(), examples)
        })
        .collect()
}

#[test]
fn readme_commands_name_existing_examples() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let re =
        regex::Regex::new(r"-p (ch\d\d-[a-z0-9-]+)(?: --features \S+)? --example (\S+)").unwrap();
    let chapters = chapters();
    let mut seen = 0;
    for c in re.captures_iter(&readme) {
        let (package, example) = (&c[1], &c[2]);
        let (_, examples) = chapters
            .iter()
            .find(|(p, _)| p == package)
            .unwrap_or_else(|| panic!("README names a package {package} that does not exist"));
        assert!(examples.contains(example), "README: {package} has no example {example}");
        seen += 1;
    }
    assert!(seen >= 6, "expected the per-chapter commands in the README, found {seen}");
}

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

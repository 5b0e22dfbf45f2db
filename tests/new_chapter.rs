//! `cargo xtask new-chapter` scaffolds a chapter that passes the workspace checks as created, and
//! refuses a bad slug, a chapter that exists and a number out of turn, writing nothing.
//!
//! The scaffold runs in a temporary copy of the workspace's sources (the manifests and members,
//! the book, the notebooks, the README; not dfdx). No new crate is compiled here: that would build
//! dfdx and plotters anew in the copy, minutes. What cargo and rustfmt can say without compiling
//! is checked instead: cargo loads the workspace with the new crate as a member, with its library,
//! figures example and test binary, and every Rust file it wrote is formatted (so it parses). That
//! the new crate compiles, draws its figure and passes its tests is checked by hand when the
//! scaffold changes, with `NN` the next chapter's number (then remove what it wrote):
//!
//! ```sh
//! cargo xtask new-chapter NN-demo "Demo" && cargo xtask figures
//! cargo xtask check && cargo test -p chNN-demo
//! ```

use crate::{examples_named, wording, worked_examples};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
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

/// A temporary workspace holding what the checks read, and every member's sources, so that cargo
/// can load it.
pub(crate) fn workspace_copy() -> tempfile::TempDir {
    let root = workspace_root();
    let tmp = tempfile::tempdir().unwrap();
    for dir in ["book", "chapters", "notebooks"] {
        copy_tree(&root.join(dir), &tmp.path().join(dir));
    }
    for file in ["Cargo.toml", "README.md", "rustfmt.toml"] {
        std::fs::copy(root.join(file), tmp.path().join(file)).unwrap();
    }
    for member in workspace_tools::manifest::member_dirs(&root).unwrap() {
        let rel = member.strip_prefix(&root).unwrap();
        if !rel.starts_with("chapters") {
            copy_tree(&member, &tmp.path().join(rel));
        }
    }
    tmp
}

/// The number the scaffold accepts, one past the last chapter's, and a slug for it.
fn next_slug(root: &Path) -> (u32, String) {
    let next = Chapter::all(root).unwrap().last().expect("a chapter exists").number() + 1;
    (next, format!("{next:02}-demo"))
}

#[test]
fn a_scaffolded_chapter_passes_the_checks() {
    let tmp = workspace_copy();
    let root = tmp.path();
    let (next, slug) = next_slug(root);
    let manifest_before = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let written = scaffold::new_chapter(root, &slug, "Demo").unwrap_or_else(|e| panic!("{e:#}"));
    let figures_example = format!("examples/ch{next:02}-figures.rs");
    let crate_files = [
        "Cargo.toml",
        "src/lib.rs",
        "src/figures.rs",
        &figures_example,
        "tests/main.rs",
        "tests/worked_examples.rs",
        "tests/figures.rs",
    ];
    let mut want: BTreeSet<PathBuf> =
        crate_files.iter().map(|f| format!("chapters/{slug}/{f}").into()).collect();
    want.extend(
        [format!("book/src/{slug}.md"), format!("notebooks/{slug}.ipynb")].map(PathBuf::from),
    );
    want.extend(
        ["book/src/SUMMARY.md", "README.md", "book/src/introduction.md", "Cargo.toml"]
            .map(PathBuf::from),
    );
    assert_eq!(written.iter().cloned().collect::<BTreeSet<_>>(), want);
    assert_eq!(written.len(), want.len(), "a file written twice: {written:?}");

    let problems = layout::problems(root).unwrap();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    bookbuild::check_sources(root).unwrap_or_else(|e| panic!("{e:#}"));
    let pages = bookbuild::pages(root).unwrap();
    assert_eq!(pages[pages.len() - 2].source, Path::new(&format!("{slug}.md")));

    let chapter = Chapter::all(root).unwrap().pop().unwrap();
    assert_eq!(chapter.figures_example(), Some(format!("ch{next:02}-figures")));
    // one test binary: every file in tests/ is a module of tests/main.rs
    let tests_main = std::fs::read_to_string(chapter.dir.join("tests/main.rs")).unwrap();
    for test in ["figures", "worked_examples"] {
        assert!(tests_main.contains(&format!("\nmod {test};\n")), "{tests_main}");
    }

    // the crate's line in [workspace.dependencies], after the last chapter's, and nothing else
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let lines: Vec<&str> = manifest.lines().collect();
    let line = format!("{} = {{ path = \"chapters/{slug}\" }}", chapter.package);
    let at = lines.iter().position(|l| *l == line).unwrap_or_else(|| panic!("no {line:?}"));
    let is_chapter = |l: &str| l.starts_with("ch") && l.contains("{ path = \"chapters/");
    assert!(is_chapter(lines[at - 1]) && !is_chapter(lines[at + 1]), "{manifest}");
    let mut before = lines.clone();
    before.remove(at);
    assert_eq!(before, manifest_before.lines().collect::<Vec<_>>());

    let nb = notebook::read(&chapter.notebook).unwrap();
    assert_eq!(notebook::check_source(&nb).unwrap(), vec![]);
    let first_code = nb["cells"].as_array().unwrap().iter().find(|c| c["cell_type"] == "code");
    let deps = notebook::text_of(&first_code.unwrap()["source"]);
    assert!(deps.starts_with(":cache") && deps.contains(&format!(":dep {}", chapter.package)));
    // dfdx with the features every notebook asks for, so its kernel compiles dfdx no more
    let chapter_1 = notebook::read(&root.join("notebooks/01-attention.ipynb")).unwrap();
    assert_eq!(notebook::dep_line(&nb, "dfdx"), notebook::dep_line(&chapter_1, "dfdx"));

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

/// What would stop the new crate building, short of compiling it: cargo loads the workspace with
/// it as a member (its manifest inherits only what the workspace has) and finds its library, its
/// figures example and its one test binary; its Rust files are formatted as `cargo xtask check`
/// wants, so they parse.
#[test]
fn a_scaffolded_crate_loads_in_cargo_and_is_formatted() {
    let tmp = workspace_copy();
    let root = tmp.path();
    let (next, slug) = next_slug(root);
    let written = scaffold::new_chapter(root, &slug, "Demo").unwrap_or_else(|e| panic!("{e:#}"));

    let out = Command::new(workspace_tools::cargo_program())
        .current_dir(root)
        .args(["metadata", "--no-deps", "--offline", "--format-version", "1"])
        .output()
        .expect("running cargo metadata");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let package = format!("ch{slug}");
    let new = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == package.as_str())
        .unwrap_or_else(|| panic!("cargo does not list {package}"));
    assert!(metadata["workspace_members"].as_array().unwrap().contains(&new["id"]));
    let targets: BTreeSet<(String, String)> = new["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["kind"][0].as_str().unwrap().into(), t["name"].as_str().unwrap().into()))
        .collect();
    let want = [
        ("lib", package.replace('-', "_")),
        ("example", format!("ch{next:02}-figures")),
        ("test", "tests".into()),
    ];
    assert_eq!(targets, want.map(|(kind, name)| (kind.to_string(), name)).into());

    let rust: Vec<PathBuf> = written
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| root.join(p))
        .collect();
    assert_eq!(rust.len(), 6, "{rust:?}");
    let out = Command::new("rustfmt")
        .args(["--check", "--edition", "2021"])
        .args(&rust)
        .output()
        .unwrap_or_else(|e| panic!("running rustfmt: {e} (`rustup component add rustfmt`)"));
    assert!(out.status.success(), "not formatted:\n{}", String::from_utf8_lossy(&out.stdout));
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
        refused(root, &slug, title, want);
    }
    // a line for the chapter's crate in [workspace.dependencies] already
    let manifest = root.join("Cargo.toml");
    let section = "[workspace.dependencies]\n";
    let line = format!("ch{next:02}-demo = {{ path = \"chapters/{next:02}-demo\" }}\n");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, text.replace(section, &format!("{section}{line}"))).unwrap();
    let want = format!("lists `ch{next:02}-demo` in [workspace.dependencies] already");
    refused(root, &format!("{next:02}-demo"), "Demo", &want);
    assert_eq!(Chapter::all(root).unwrap().len() as u32, next - 1);
    let problems = layout::problems(root).unwrap();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `new_chapter(root, slug, title)` fails with an error that contains `want`.
fn refused(root: &Path, slug: &str, title: &str, want: &str) {
    let err = match scaffold::new_chapter(root, slug, title) {
        Ok(files) => panic!("{slug} {title:?} was accepted: {files:?}"),
        Err(e) => format!("{e:#}"),
    };
    assert!(err.contains(want), "{slug} {title:?}: {err}");
}

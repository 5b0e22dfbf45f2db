//! Every cargo command the book, the README, CONTRIBUTING.md and the notebooks tell a reader to run
//! names a package of the workspace, and every `--example NAME` names an example that package has.
//!
//! A command is `cargo SUBCOMMAND ...` up to the end of its inline code span, a `#` comment, `&&`,
//! `;`, `|` or the next `cargo`. A bare `` `--example NAME` `` outside a command continues the
//! nearest command before it in the same paragraph (or notebook cell), as in the book's
//! "Examples: `cargo run -p ch09-capstone --example evaluate_reverser`, `--example mirror`".

use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;
use workspace_tools::notebook::{read, text_of};
use workspace_tools::workspace_root;

/// Every package of the workspace with its example names.
pub(crate) fn packages() -> BTreeMap<String, BTreeSet<String>> {
    workspace_tools::manifest::packages(&workspace_root()).unwrap_or_else(|e| panic!("{e:#}"))
}

/// One reference to a package, or to an example of one, found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Mention {
    /// The command as written (for a bare `--example NAME`, that and the command it continues).
    command: String,
    /// The package it names (`-p`), if any.
    package: Option<String>,
    /// The example it names (`--example`), if any.
    example: Option<String>,
}

static TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?P<cargo>\bcargo\s+[a-z][a-z-]*)",
        r"|(?:^|\s)(?:-p|--package)(?:\s+|=)(?P<package>[A-Za-z0-9_-]+)",
        r"|--example(?:\s+|=)(?P<example>[A-Za-z0-9_-]+)",
        r"|(?P<end>`|\s#|&&|;|\|)",
    ))
    .unwrap()
});

/// The paragraphs of a markdown text: runs of non-blank lines, block-quote markers (`>`) removed,
/// joined with spaces. Each line of a fenced code block is a paragraph of its own.
fn paragraphs(text: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut fenced = false;
    for line in text.lines() {
        let line = line.trim_start().trim_start_matches(['>', ' ']).trim();
        if line.starts_with("```") {
            fenced = !fenced;
            out.push(String::new());
        } else if fenced {
            out.extend([line.to_string(), String::new()]);
        } else if line.is_empty() {
            out.push(String::new());
        } else {
            let last = out.last_mut().unwrap();
            last.push(' ');
            last.push_str(line);
        }
    }
    out.retain(|p| !p.trim().is_empty());
    out
}

/// The command being read: where it starts, its package, its examples.
struct Open {
    start: usize,
    package: Option<String>,
    examples: Vec<String>,
}

/// The commands of one paragraph that name a package or an example, in order.
fn mentions_in_paragraph(p: &str) -> Vec<Mention> {
    let mut out = Vec::new();
    let mut open: Option<Open> = None;
    // the last command closed: what a bare `--example` continues
    let mut last: Option<Mention> = None;
    for m in TOKEN.captures_iter(p) {
        let at = m.get(0).unwrap().start();
        if let Some(cargo) = m.name("cargo") {
            finish(p, open.take(), at, &mut out, &mut last);
            open = Some(Open { start: cargo.start(), package: None, examples: Vec::new() });
        } else if let Some(package) = m.name("package") {
            if let Some(c) = open.as_mut() {
                c.package = Some(package.as_str().to_string());
            }
        } else if let Some(example) = m.name("example") {
            let example = example.as_str().to_string();
            match (open.as_mut(), &last) {
                (Some(c), _) => c.examples.push(example),
                (None, Some(before)) => out.push(Mention {
                    command: format!("`--example {example}` (continuing {})", before.command),
                    package: before.package.clone(),
                    example: Some(example),
                }),
                (None, None) => out.push(Mention {
                    command: format!("`--example {example}` (no command before it)"),
                    package: None,
                    example: Some(example),
                }),
            }
        } else {
            finish(p, open.take(), at, &mut out, &mut last);
        }
    }
    finish(p, open.take(), p.len(), &mut out, &mut last);
    out
}

/// Closes the command `open` at byte `end` of `p`: records what it names.
fn finish(
    p: &str,
    open: Option<Open>,
    end: usize,
    out: &mut Vec<Mention>,
    last: &mut Option<Mention>,
) {
    let Some(c) = open else { return };
    let command = format!("`{}`", p[c.start..end].trim());
    let mention =
        |example| Mention { command: command.clone(), package: c.package.clone(), example };
    if c.examples.is_empty() {
        if c.package.is_some() {
            out.push(mention(None));
        }
    } else {
        out.extend(c.examples.iter().map(|e| mention(Some(e.clone()))));
    }
    *last = Some(mention(None));
}

/// Every mention of a package or an example in a markdown text, paragraph by paragraph.
fn mentions(text: &str) -> Vec<Mention> {
    paragraphs(text).iter().flat_map(|p| mentions_in_paragraph(p)).collect()
}

/// What is wrong with the mentions in `text` (found in `place`), given each package's examples;
/// and how many mentions there were.
pub(crate) fn check(
    place: &str,
    text: &str,
    packages: &BTreeMap<String, BTreeSet<String>>,
) -> (usize, Vec<String>) {
    let found = mentions(text);
    let mut problems = Vec::new();
    for m in &found {
        let Some(package) = &m.package else {
            problems.push(format!(
                "{place}: {}: names the example `{}` but no package: add `-p CRATE`",
                m.command,
                m.example.as_deref().unwrap_or_default()
            ));
            continue;
        };
        let Some(examples) = packages.get(package) else {
            problems.push(format!(
                "{place}: {}: there is no package `{package}` in the workspace",
                m.command
            ));
            continue;
        };
        if let Some(example) = &m.example {
            if !examples.contains(example) {
                let have: Vec<&str> = examples.iter().map(String::as_str).collect();
                problems.push(format!(
                    "{place}: {}: `{package}` has no example `{example}` (it has: {})",
                    m.command,
                    have.join(", ")
                ));
            }
        }
    }
    (found.len(), problems)
}

/// The texts to check: (where, text). Markdown files whole; a notebook cell by cell, markdown
/// and code cells alike.
fn texts() -> Vec<(String, String)> {
    let root = workspace_root();
    let mut files: Vec<_> = std::fs::read_dir(root.join("book/src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    files.extend(["README.md", "CONTRIBUTING.md"].map(|f| root.join(f)));
    let rel = |p: &std::path::Path| p.strip_prefix(&root).unwrap().display().to_string();
    let mut out: Vec<(String, String)> =
        files.iter().map(|f| (rel(f), std::fs::read_to_string(f).unwrap())).collect();
    let chapters = workspace_tools::Chapter::all(&root).unwrap_or_else(|e| panic!("{e:#}"));
    assert!(!chapters.is_empty(), "no chapters found");
    for nb in chapters.into_iter().map(|c| c.notebook) {
        let json = read(&nb).unwrap_or_else(|e| panic!("{e:#}"));
        for (i, cell) in json["cells"].as_array().expect("a notebook has cells").iter().enumerate()
        {
            let id = cell["id"].as_str().map_or(format!("{i}"), |id| format!("{i} ({id})"));
            out.push((format!("{} cell {id}", rel(&nb)), text_of(&cell["source"])));
        }
    }
    out
}

#[test]
fn commands_name_existing_packages_and_examples() {
    let packages = packages();
    let mut count = 0;
    let mut problems = Vec::new();
    for (place, text) in texts() {
        let (n, p) = check(&place, &text, &packages);
        count += n;
        problems.extend(p);
    }
    assert!(
        problems.is_empty(),
        "commands that name what does not exist:\n{}",
        problems.join("\n")
    );
    // the README alone has a dozen; the book's chapter pages list every example
    assert!(count >= 60, "expected the commands of the book, README and notebooks; found {count}");
}

#[test]
fn a_wrong_example_name_is_reported() {
    let packages = packages();
    let text =
        "It loads the weights that\n`cargo run --release -p ch09-capstone --example train` saved.";
    let (n, problems) = check("notebook", text, &packages);
    assert_eq!(n, 1);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("notebook")
            && problems[0].contains("`cargo run --release -p ch09-capstone --example train`")
            && problems[0].contains("has no example `train`"),
        "{}",
        problems[0]
    );
    let good = "`cargo run --release -p ch09-capstone --example train_reverser`";
    assert_eq!(check("notebook", good, &packages), (1, vec![]));
}

#[test]
fn a_bare_example_continues_the_command_before_it() {
    let text = "> Examples: `cargo run -p ch09-capstone --example evaluate_reverser`, `--example mirror`,\n\
                > `--example reverse -- 3 1 4 1 5`; training (release build):\n\
                > `cargo run --release -p ch07-vit --example train`, `--example seeds`.\n\
                \n\
                After a blank line `--example mirror` continues nothing.";
    let found = mentions(text);
    let named: Vec<(Option<&str>, Option<&str>)> =
        found.iter().map(|m| (m.package.as_deref(), m.example.as_deref())).collect();
    assert_eq!(
        named,
        [
            (Some("ch09-capstone"), Some("evaluate_reverser")),
            (Some("ch09-capstone"), Some("mirror")),
            (Some("ch09-capstone"), Some("reverse")),
            (Some("ch07-vit"), Some("train")),
            (Some("ch07-vit"), Some("seeds")),
            (None, Some("mirror")),
        ]
    );
    let (_, problems) = check("page", text, &packages());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("`--example mirror` (no command before it)"), "{}", problems[0]);
    // the bare name is checked against the package it continues
    let (_, problems) = check(
        "page",
        "`cargo run -p ch09-capstone --example mirror`, `--example seeds`",
        &packages(),
    );
    assert!(
        problems.len() == 1 && problems[0].contains("`ch09-capstone` has no example `seeds`"),
        "{problems:?}"
    );
}

#[test]
fn commands_end_where_the_text_says() {
    let text = "```sh\n\
                cargo test -p ch01-attention                      # worked examples\n\
                cargo run  -p ch01-attention --example weightless # print it\n\
                cargo bench -p ch99-missing\n\
                cargo test -p <chapter>\n\
                mkdir -p target\n\
                ```";
    let found = mentions(text);
    let commands: Vec<&str> = found.iter().map(|m| m.command.as_str()).collect();
    assert_eq!(
        commands,
        [
            "`cargo test -p ch01-attention`",
            "`cargo run  -p ch01-attention --example weightless`",
            "`cargo bench -p ch99-missing`",
        ]
    );
    let (_, problems) = check("README.md", text, &packages());
    assert_eq!(problems, ["README.md: `cargo bench -p ch99-missing`: there is no package `ch99-missing` in the workspace"]);
}

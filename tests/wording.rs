//! The book stands on its own: readers have never seen the articles it learned from, so no page,
//! notebook or code comment speaks of "the sources" or "the seed". It names what it compares with
//! (PyTorch's `nn.MultiheadAttention`, "the annotated-Transformer style `NormLayer`") and cites
//! papers in `book/src/references.md`.

use regex::Regex;
use std::path::{Path, PathBuf};
use workspace_tools::workspace_root;

/// Phrases that point at material the reader does not have. RNG seeds ("seeded", "seed 7") are
/// fine; these are not.
pub(crate) const FORBIDDEN: &str = r"(?i)\bthe sources\b|\bthe sources'|\bthe seeds?\b|\bthe seed's\b|\bseed(?:Model|_form)\b|\bthe source articles?\b|\bthe articles?\b";

/// Goals spoken of as if the reader knew them ("the target was 10×", "the floor of the target").
/// A chapter states its goals as its own, with why, before it measures them, and then speaks of
/// "its goal"; "target" stays free for what a model must predict ("target tokens").
pub(crate) const UNINTRODUCED_GOAL: &str = r"(?i)\bthe target (?:was|is|of)\b|\bthe targets (?:were|are)\b|\bfloor of the target\b|\btargets? of at (?:least|most)\b|\b(?:meets?|met|miss(?:es|ed)?) (?:its|the) targets?\b|\bthe [^ ]+ target set for\b";

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            if !["target", "build", "katex", "figures", ".git"].contains(&name.as_str()) {
                walk(&path, out);
            }
        } else if ["rs", "md", "ipynb", "py", "toml"]
            .iter()
            .any(|ext| path.extension().is_some_and(|e| e == *ext))
        {
            out.push(path);
        }
    }
}

fn hits(text: &str, re: &Regex) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| re.find(line).map(|m| (i + 1, m.as_str().to_string())))
        .collect()
}

/// Every match of `pattern` in `files`, as `path:line: "phrase"`, after checking that there are
/// enough files for the search to mean something.
fn found(root: &Path, files: &[PathBuf], pattern: &str) -> Vec<String> {
    assert!(files.len() > 20, "found only {} files", files.len());
    let re = Regex::new(pattern).unwrap();
    let mut out = Vec::new();
    for file in files {
        let text =
            std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for (line, phrase) in hits(&text, &re) {
            out.push(format!("{}:{line}: {phrase:?}", file.strip_prefix(root).unwrap().display()));
        }
    }
    out
}

/// `pattern` matches every one of `bad` and none of `fine`.
fn assert_pattern(pattern: &str, bad: &[&str], fine: &[&str]) {
    let re = Regex::new(pattern).unwrap();
    for b in bad {
        assert!(re.is_match(b), "{b:?} should be caught");
    }
    for f in fine {
        assert!(!re.is_match(f), "{f:?} is fine");
    }
}

#[test]
fn nothing_refers_to_unseen_sources() {
    let root = workspace_root();
    let mut files = Vec::new();
    for dir in ["book/src", "chapters", "notebooks", "support", "xtask", "tools"] {
        walk(&root.join(dir), &mut files);
    }
    files.push(root.join("README.md"));
    files.push(root.join("CONTRIBUTING.md"));
    let found = found(&root, &files, FORBIDDEN);
    assert!(
        found.is_empty(),
        "name what the text compares with, or cite the paper, instead of:\n{}",
        found.join("\n")
    );
}

#[test]
fn goals_are_introduced_not_assumed() {
    let root = workspace_root();
    // the reader-facing text: pages, notebooks, README
    let mut files = Vec::new();
    walk(&root.join("book/src"), &mut files);
    walk(&root.join("notebooks"), &mut files);
    files.push(root.join("README.md"));
    let found = found(&root, &files, UNINTRODUCED_GOAL);
    assert!(
        found.is_empty(),
        "state the chapter's goal (and why) before measuring it, and call it its goal:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_goal_pattern_catches_what_it_must() {
    let bad = [
        "20.3× faster (the target was 10×)",
        "The floor of the target (at least 0.5×) is met",
        "against targets of at least 99 % in at most 60 s",
        "The targets were at least 97 %",
        "So the ViT meets its target and loses",
        "It meets the accuracy target set for it",
    ];
    let fine = [
        "the loss over the real target tokens",
        "the decoder's input and its target are the same sequence shifted by one",
        "with label smoothing 0.1 the targets themselves have an entropy of 0.50",
        "both of the chapter's goals are met",
    ];
    assert_pattern(UNINTRODUCED_GOAL, &bad, &fine);
}

#[test]
fn the_pattern_catches_what_it_must() {
    let bad = [
        "Where the sources' code differs",
        "the seed's `NormLayer`",
        "type SeedModel = Seq2Seq<..>;",
        "let seed_form = 1;",
        "as the article says",
        "The sources write it two ways",
        "bit for bit (the seed fixes the weights)",
    ];
    let fine = [
        "let dev = seeded_device(7);",
        "a fixed random seed, so the curve is reproducible",
        "the source sequence is padded",
        "with seed 42",
    ];
    assert_pattern(FORBIDDEN, &bad, &fine);
}

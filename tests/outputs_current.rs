//! Every printed output in the book is what its program prints now.
//!
//! Each `chapters/*/outputs/NAME.txt` is run again (the program `cargo run -p <chapter> --example
//! NAME` runs, built once for the whole workspace) and compared line by line; regenerate them all
//! with `cargo xtask outputs`.

use workspace_tools::outputs;
use workspace_tools::{workspace_root, Chapter};

/// Runs every output whose `needs_models` is `models` again and fails on the first stale one.
fn outputs_match(models: bool) {
    let root = workspace_root();
    let all = Chapter::all_outputs(&root).expect("list the outputs");
    let chosen: Vec<_> = all.iter().filter(|o| o.needs_models == models).collect();
    assert!(!chosen.is_empty(), "no chapters/*/outputs/*.txt found (needing models: {models})");
    let programs = outputs::Programs::build_for(&root, &chosen).unwrap_or_else(|e| panic!("{e:#}"));
    let mut stale = Vec::new();
    for output in chosen {
        let stdout = programs.run(&root, output).unwrap_or_else(|e| panic!("{e:#}"));
        let committed = std::fs::read_to_string(&output.path)
            .unwrap_or_else(|e| panic!("{}: {e}", output.path.display()));
        if let Some(diff) = outputs::first_difference(&committed, &output.expected(&stdout)) {
            let rel = output.path.strip_prefix(&root).unwrap_or(&output.path);
            stale.push(format!("{} differs from its program at {diff}", rel.display()));
        }
    }
    assert!(stale.is_empty(), "{}\nrun `cargo xtask outputs` to regenerate", stale.join("\n"));
}

#[test]
fn book_outputs_match_their_programs() {
    outputs_match(false);
}

/// The outputs of programs that run a published model (`NAME.needs-models`).
#[test]
#[ignore = "needs the published model files: cargo xtask models"]
fn book_outputs_of_the_published_models_match_their_programs() {
    outputs_match(true);
}

#[test]
fn every_output_file_is_shown_in_the_book() {
    let root = workspace_root();
    let mut book = String::new();
    for page in std::fs::read_dir(root.join("book/src")).unwrap() {
        let page = page.unwrap().path();
        if page.extension().is_some_and(|e| e == "md") {
            book.push_str(&std::fs::read_to_string(&page).unwrap());
        }
    }
    for output in Chapter::all_outputs(&root).unwrap() {
        let rel = output.path.strip_prefix(&root).unwrap().display().to_string();
        let whole = book.contains(&format!("{{{{#include ../../{rel}}}}}"));
        // a Markdown table is included from its second line, below its command line; the page
        // must then name that command in its text
        let table = book.contains(&format!("{{{{#include ../../{rel}:2:}}}}"));
        let named = book.contains(output.command().trim_start_matches("$ "));
        assert!(
            whole || (table && named),
            "{rel} is generated but no page includes it whole (or, for a table, from line 2 \
             with its command `{}` named in the text): include it or delete it",
            output.command()
        );
    }
}

/// A ```` ```text ```` block in a page shows what a program printed, so it must be one include of a
/// generated output file; other preformatted text uses a plain ```` ``` ```` fence.
#[test]
fn no_output_block_is_typed_by_hand() {
    let root = workspace_root();
    let include =
        regex::Regex::new(r"^\{\{#include \.\./\.\./chapters/[^/]+/outputs/[^/]+\.txt\}\}$")
            .unwrap();
    let mut typed = Vec::new();
    for page in std::fs::read_dir(root.join("book/src")).unwrap() {
        let page = page.unwrap().path();
        if page.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&page).unwrap();
        let mut lines = text.lines().enumerate();
        while let Some((i, line)) = lines.next() {
            if line.trim_start().starts_with("```text") {
                let body: Vec<&str> =
                    lines.by_ref().map(|(_, l)| l).take_while(|l| !l.starts_with("```")).collect();
                if body.len() != 1 || !include.is_match(body[0].trim()) {
                    typed.push(format!(
                        "{}:{}",
                        page.file_name().unwrap().to_string_lossy(),
                        i + 1
                    ));
                }
            }
        }
    }
    assert!(
        typed.is_empty(),
        "these ```text blocks are typed by hand; print them from an example and include \
         chapters/<slug>/outputs/NAME.txt instead: {typed:?}"
    );
}

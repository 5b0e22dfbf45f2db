//! Checks of the `{{#include}}` / `{{#rustdoc_include}}` links: the file they name must exist, and
//! so must the anchor or the line range they select.

use regex::Regex;
use std::path::Path;
use std::sync::LazyLock;

/// The same pattern mdBook's `links` preprocessor uses.
static LINK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        \\\{\{\#.*\}\}          # escaped link: not expanded
        |
        \{\{\s*\#([a-zA-Z0-9_]+)\s+([^}]+)\}\}",
    )
    .unwrap()
});
static ANCHOR_START: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"ANCHOR:\s*(?P<name>[\w_-]+)").unwrap());
static ANCHOR_END: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"ANCHOR_END:\s*(?P<name>[\w_-]+)").unwrap());

/// Reports, through `add(byte offset, message)`, every include in `text` (a markdown file in
/// `dir`) whose file, anchor or line range does not exist.
pub(super) fn check_includes(text: &str, dir: &Path, add: &mut impl FnMut(usize, String)) {
    for cap in LINK.captures_iter(text) {
        let (Some(kind), Some(target)) = (cap.get(1), cap.get(2)) else {
            continue;
        };
        let kind = kind.as_str();
        if kind != "include" && kind != "rustdoc_include" {
            continue;
        }
        let offset = cap.get(0).unwrap().start();
        let target = target.as_str().split_whitespace().next().unwrap_or("");
        let (file, selector) = match target.split_once(':') {
            Some((f, s)) => (f, Some(s)),
            None => (target, None),
        };
        let path = dir.join(file);
        let contents = match std::fs::read_to_string(&path) {
            Ok(c) => c,
            Err(_) => {
                add(offset, format!("`{{{{#{kind} {target}}}}}`: file `{file}` does not exist"));
                continue;
            }
        };
        let Some(selector) = selector else { continue };
        let first = selector.split(':').next().unwrap_or("");
        if first.is_empty() || first.parse::<usize>().is_ok() {
            // A line range `start:end`; the start must be inside the file.
            let start = first.parse::<usize>().unwrap_or(1);
            let n = contents.lines().count();
            if start > n {
                add(offset, format!("`{{{{#{kind} {target}}}}}`: `{file}` has only {n} lines"));
            }
            continue;
        }
        let anchor = first;
        let has = |re: &Regex| {
            contents.lines().any(|l| re.captures(l).is_some_and(|c| &c["name"] == anchor))
        };
        let (start, end) = (has(&ANCHOR_START), has(&ANCHOR_END));
        if !start || !end {
            let missing = match (start, end) {
                (false, false) => format!("`ANCHOR: {anchor}` and `ANCHOR_END: {anchor}`"),
                (false, true) => format!("`ANCHOR: {anchor}`"),
                _ => format!("`ANCHOR_END: {anchor}`"),
            };
            add(
                offset,
                format!("`{{{{#{kind} {target}}}}}`: anchor `{anchor}` not found, `{file}` has no {missing}"),
            );
        }
    }
}

/// Whether `line` is nothing but one include link.
pub(super) fn is_include_line(line: &str) -> bool {
    static INCLUDE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\{\{\s*#(include|rustdoc_include)\s+[^}]+\}\}$").unwrap());
    INCLUDE.is_match(line.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_lines() {
        assert!(is_include_line("{{#include ../../chapters/x/src/lib.rs:attn}}"));
        assert!(is_include_line("  {{#rustdoc_include a.rs}}  "));
        assert!(!is_include_line("fn main() {}"));
        assert!(!is_include_line("{{#include a.rs}} // trailing"));
    }
}

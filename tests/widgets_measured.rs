//! The committed measurements of the live widgets (`web/measured/widgets.md`, what the browser
//! check wrote in its last recorded run): they cover every widget of the book, each within the
//! browser check's tolerance, on a named machine, and CONTRIBUTING shows that table unchanged.

use std::collections::BTreeSet;
use std::fs;
use workspace_tools::workspace_root;

const MEASURED: &str = "web/measured/widgets.md";
/// The column naming the widget: after the page and its four sizes.
const WIDGET: usize = 5;

/// The widgets the book's pages hold: every `data-widget="..."` in `book/src/*.md`.
fn widgets_in_book() -> BTreeSet<String> {
    let root = workspace_root();
    let mut names = BTreeSet::new();
    for entry in fs::read_dir(root.join("book/src")).unwrap().flatten() {
        if entry.path().extension().is_some_and(|e| e == "md") {
            let text = fs::read_to_string(entry.path()).unwrap();
            for part in text.split("data-widget=\"").skip(1) {
                names.insert(part.split('"').next().unwrap().to_string());
            }
        }
    }
    names
}

#[test]
fn the_committed_widget_table_covers_every_widget() {
    let root = workspace_root();
    let text = fs::read_to_string(root.join(MEASURED)).expect(MEASURED);
    let first = text.lines().next().unwrap_or("");
    assert!(
        first.starts_with("Measured by") && first.contains("cores"),
        "{MEASURED} must say the machine it was measured on: {first}"
    );
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| l.starts_with("| ") && l.as_bytes().get(2).is_some_and(u8::is_ascii_digit))
        .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
        .collect();
    let measured: BTreeSet<String> = rows.iter().map(|r| r[WIDGET].to_string()).collect();
    assert_eq!(measured, widgets_in_book(), "{MEASURED} against the book's widgets");
    for row in &rows {
        let name = row[WIDGET];
        let difference: f32 = row[WIDGET + 3].parse().unwrap_or(f32::NAN);
        assert!(difference <= 1e-5, "{name}: largest difference {}", row[WIDGET + 3]);
        for value in &row[WIDGET + 1..WIDGET + 3] {
            let ms: f64 = value.trim_end_matches(" ms").parse().unwrap_or(f64::NAN);
            assert!(ms.is_finite() && ms > 0.0, "{name}: a time is {value}");
        }
        for value in &row[1..WIDGET] {
            let mb: f64 = value.trim_end_matches(" MB").parse().unwrap_or(f64::NAN);
            assert!(mb.is_finite() && mb > 0.0, "{name}: a size is {value}");
        }
    }
    let contributing = fs::read_to_string(root.join("CONTRIBUTING.md")).unwrap();
    for line in text.lines().filter(|l| l.starts_with('|')) {
        assert!(
            contributing.contains(line),
            "CONTRIBUTING.md lacks this row of {MEASURED}:\n{line}"
        );
    }
}

//! What a new chapter starts with: each file's text, and the line each list gains.

use crate::Slug;
use serde_json::{json, Value};

/// The names a new chapter's files use.
pub(super) struct Names<'a> {
    pub slug: &'a Slug,
    pub title: &'a str,
}

impl Names<'_> {
    fn package(&self) -> String {
        self.slug.package()
    }

    /// The crate's name in Rust code (`ch10_demo`).
    fn krate(&self) -> String {
        self.package().replace('-', "_")
    }

    /// The first worked example's test (`worked_example_demo` for `10-demo`).
    pub fn test(&self) -> String {
        let words = self.slug.as_str().split_once('-').map_or("", |(_, w)| w);
        format!("worked_example_{}", words.replace('-', "_"))
    }

    pub fn manifest(&self) -> String {
        format!(
            r#"[package]
name = "{package}"
description = "Chapter {n}: {title}."
version.workspace = true
edition.workspace = true
license.workspace = true
publish.workspace = true
# every file in tests/ is a module of tests/main.rs: one test binary per chapter
autotests = false

[lib]
# its tests are all in tests/ (one binary, below): no unit-test harness of the library to compile
# (`workspace_tools::layout::lib_test_harness` holds this line and src/ together)
test = false

[features]
cuda = ["dfdx/cuda", "support/cuda"]

[dependencies]
dfdx.workspace = true
support.workspace = true

[lints]
workspace = true

[[test]]
name = "tests"
path = "tests/main.rs"
"#,
            package = self.package(),
            n = self.slug.number(),
            title = self.title,
        )
    }

    pub fn lib(&self) -> String {
        format!(
            r#"//! Chapter {n}: {title}.

pub mod figures;

use dfdx::prelude::*;

// ANCHOR: scale
/// Multiplies every entry of `x` by `factor`.
pub fn scale<S: Shape, D: Device<f32>>(x: Tensor<S, f32, D>, factor: f32) -> Tensor<S, f32, D> {{
    x * factor
}}
// ANCHOR_END: scale
"#,
            n = self.slug.number(),
            title = self.title,
        )
    }

    pub fn test_main(&self) -> String {
        format!(
            "//! {package}'s integration tests, in one binary (one link of dfdx instead of one per \
             file).\n//! `cargo test -p {package}` runs them all; `cargo test -p {package} \
             MODULE::` runs one file's.\n\nmod figures;\nmod worked_examples;\n",
            package = self.package(),
        )
    }

    pub fn worked_examples(&self) -> String {
        format!(
            r#"//! The worked examples of chapter {n}, with every number its page shows.

use {krate}::scale;
use dfdx::prelude::*;

/// Scaling [1, 2, 3] by 2 gives [2, 4, 6].
#[test]
fn {test}() {{
    let dev = support::Dev::default();
    let x = dev.tensor([1.0f32, 2.0, 3.0]);
    assert_eq!(scale(x, 2.0).as_vec(), [2.0, 4.0, 6.0]);
}}
"#,
            n = self.slug.number(),
            krate = self.krate(),
            test = self.test(),
        )
    }

    /// The figures example's name (`ch10-figures`), which `cargo xtask figures` runs.
    pub fn figures_example(&self) -> String {
        format!("ch{:02}-figures", self.slug.number())
    }

    /// `src/figures.rs`: every figure of the chapter, drawn by `all`, and one placeholder figure.
    pub fn figures(&self) -> String {
        format!(
            r#"//! The chapter's figures, built from the same functions the text runs. `cargo xtask figures`
//! writes them into the book (`book/src/figures/`); the notebook shows them inline.

use crate::scale;
use dfdx::prelude::*;
use support::{{Heatmap, Svg}};

/// A fixed 2 x 3 matrix scaled by 2: the placeholder figure, until the chapter has its own.
pub fn scaled<Dev: Device<f32>>(dev: &Dev) -> Heatmap {{
    let x = dev.tensor([[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    Heatmap::new("A 2 x 3 matrix scaled by 2", scale(x, 2.0).as_vec(), 2, 3)
        .axes("column", "row")
        .decimals(Some(0))
}}

/// Every figure of the chapter with its file name.
pub fn all<Dev: Device<f32>>(dev: &Dev) -> Vec<(&'static str, Svg)> {{
    vec![("ch{nn:02}-scaled.svg", scaled(dev).to_svg())]
}}
"#,
            nn = self.slug.number(),
        )
    }

    /// `examples/chNN-figures.rs`: writes the figures into the book.
    pub fn figures_main(&self) -> String {
        format!(
            r#"//! Writes this chapter's figures into the book (`cargo xtask figures` runs every chapter's):
//! `cargo run -p {package} --example {example}`.

use {krate}::figures;

fn main() -> std::io::Result<()> {{
    support::write_book_figures(&figures::all(&support::Dev::default()))
}}
"#,
            package = self.package(),
            example = self.figures_example(),
            krate = self.krate(),
        )
    }

    /// `tests/figures.rs`: the book's figures are what the code draws.
    pub fn figures_test(&self) -> String {
        format!(
            r#"//! The figures in the book are exactly what this chapter's code draws (deterministic).

use {krate}::figures;

support::book_figures_test!(figures::all(&support::Dev::default()));
"#,
            krate = self.krate(),
        )
    }

    pub fn page(&self) -> String {
        format!(
            r#"# {title}

What this chapter builds, and what it adds to the chapters before it.

> Crate: `chapters/{slug}` (`{package}`).
> Notebook: `notebooks/{slug}.ipynb`. Tests: `cargo test -p {package}`.

## A first listing

```rust
{{{{#include ../../chapters/{slug}/src/lib.rs:scale}}}}
```

Scaling $x = [1, 2, 3]$ by $2$ gives $[2, 4, 6]$.

> Test: `{test}` in `chapters/{slug}/tests/worked_examples.rs` checks this example.
"#,
            title = self.title,
            slug = self.slug,
            package = self.package(),
            test = self.test(),
        )
    }

    /// The notebook on the evcxr `rust` kernel (nbformat 4.5, cell ids), without outputs; its
    /// first code cell holds `:cache` and every `:dep`.
    pub fn notebook(&self) -> Value {
        let nn = format!("{:02}", self.slug.number());
        let markdown = |i: usize, source: String| {
            json!({"cell_type": "markdown", "id": format!("{nn}-{i:02}"), "metadata": {},
                   "source": source})
        };
        let code = |i: usize, source: String| {
            json!({"cell_type": "code", "id": format!("{nn}-{i:02}"), "metadata": {},
                   "source": source, "execution_count": null, "outputs": []})
        };
        let (n, title, package, slug) =
            (self.slug.number(), self.title, self.package(), self.slug.as_str());
        let deps = [
            ":cache 4096".to_string(),
            format!(":dep {package} = {{ path = \"../chapters/{slug}\" }}"),
            ":dep support = { path = \"../support\" }".into(),
            ":dep dfdx = { version = \"0.13\", default-features = false, features = [\"std\", \
             \"fast-alloc\", \"cpu\", \"safetensors\"] }"
                .into(),
        ];
        let first = [
            "let x = dev.tensor([1.0f32, 2.0, 3.0]);",
            "let y = scale(x.clone(), 2.0);",
            "println!(\"{:?}\", y.as_vec());",
            "support::plot::BarChart::new(\"x and 2x\", &[\"x0\", \"x1\", \"x2\"])",
            "    .series(\"x\", x.as_vec())",
            "    .series(\"2x\", y.as_vec())",
        ];
        json!({
            "nbformat": 4,
            "nbformat_minor": 5,
            "metadata": {
                "kernelspec": {"name": "rust", "display_name": "Rust", "language": "rust"},
                "language_info": {"name": "rust", "file_extension": ".rs", "mimetype": "text/rust"}
            },
            "cells": [
                markdown(0, format!(
                    "# Chapter {n} — {title}\n\nThis notebook follows chapter {n} of *Attention \
                     in Rust*, calling the chapter's crate `{package}`.\n\nThe next cell declares \
                     every dependency; the first run compiles them, which takes a while."
                )),
                code(1, deps.join("\n")),
                code(2, format!(
                    "use {}::scale;\nuse dfdx::prelude::*;\nlet dev = support::Dev::default();",
                    self.krate()
                )),
                markdown(3, "## A first listing\n\nScaling $x = [1, 2, 3]$ by $2$ gives \
                             $[2, 4, 6]$.".into()),
                code(4, first.join("\n")),
            ]
        })
    }

    /// The line of `SUMMARY.md`, written with `marker` (`1. `) like the line before it.
    pub fn summary_line(&self, marker: &str) -> String {
        format!("{marker}[{}]({}.md)", self.title, self.slug)
    }

    /// The row of README's chapter table; the examples column lists the figures example.
    pub fn readme_row(&self) -> String {
        let (n, title, package) = (self.slug.number(), self.title, self.package());
        format!("| {n:02} | {title} | `{package}` | `{}` |", self.figures_example())
    }

    /// The crate's line in the top-level `[workspace.dependencies]`, for the later chapters that
    /// build on it.
    pub fn workspace_dependency(&self) -> String {
        format!("{} = {{ path = \"chapters/{}\" }}", self.package(), self.slug)
    }

    /// The row of the introduction's chapter table; "builds on" is for the author to fill in.
    pub fn introduction_row(&self) -> String {
        let (n, title, slug) = (self.slug.number(), self.title, self.slug);
        format!("| {n} | [{title}]({slug}.md) | `{}` | — |", self.package())
    }
}

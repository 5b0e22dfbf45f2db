//! Builds, checks and serves the book, with mdBook used as a library.
//!
//! * [`check_sources`] validates the markdown before anything is rendered: every chapter listed in
//!   `SUMMARY.md` exists, every `{{#include}}` / `{{#rustdoc_include}}` points at an existing file
//!   (and anchor), every ```` ```rust ```` block only includes compiled code, images and local
//!   links resolve, and every formula renders with KaTeX.
//! * [`build`] renders `book/` into `book/build/`: math is turned into HTML at build time by
//!   KaTeX (`mdbook-katex`), ```` ```mermaid ```` blocks become the drawings committed in
//!   `book/src/diagrams/` (drawn by `cargo xtask diagrams`, see [`diagrams`]), so no page runs
//!   mermaid.js. Nothing is loaded from a CDN, which [`check_output`] verifies on the rendered HTML.
//! * [`serve`] / [`serve_in_background`] serve the rendered book over HTTP.
//!
//! All paths taken by the public functions are the workspace root (the folder holding `book/`),
//! except [`serve_in_background`] and [`check_output`], which take the rendered HTML folder.
//!
//! Modules:
//! * `structure`: the book's structure, the pages listed in `SUMMARY.md` ([`pages`], [`Page`]).
//! * `sources`: checks of the markdown sources ([`check_sources`], [`find_problems`]).
//! * `render`: renders the book with mdBook and its preprocessors ([`build`],
//!   [`dedent_code_blocks`]).
//! * `output`: checks of the rendered HTML ([`check_output`], [`visible_text`]).
//! * `server`: the local HTTP server ([`serve`], [`serve_in_background`], [`content_type`]).
//! * `problem`: the [`Problem`] the checks report, and how they are listed and located.
//! * `scan`: what a page and `SUMMARY.md` hold, read without judging ([`math_spans`], the
//!   mermaid diagrams, the chapter links); `sources` and `structure` both build on it.
//! * [`diagrams`]: the diagrams' sources, the names of their drawings, and the drawings put in
//!   place of the blocks.
//! * `url`, `walk`: small helpers shared by the modules above (URLs, directory walking).

pub mod diagrams;
mod output;
mod problem;
mod render;
mod scan;
mod server;
mod sources;
mod structure;
mod url;
mod walk;

use std::path::{Path, PathBuf};

pub use output::{check_output, visible_text};
pub use problem::Problem;
pub use render::{build, dedent_code_blocks};
pub use scan::math_spans;
pub use server::{content_type, serve, serve_in_background, ServerHandle};
pub use sources::{check_sources, find_problems};
pub use structure::{pages, Page};

/// The book's folder inside the workspace root.
pub fn book_dir(root: &Path) -> PathBuf {
    root.join("book")
}

/// The folder [`build`] writes the HTML to: `<root>/book/build`.
pub fn output_dir(root: &Path) -> PathBuf {
    book_dir(root).join("build")
}

/// A fresh, empty folder under the system's temporary folder, for tests.
#[cfg(test)]
fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bookbuild-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

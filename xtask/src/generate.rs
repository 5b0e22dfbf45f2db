//! Generated files the book includes: figures (SVG) and printed outputs (text).

use crate::run::cargo;
use anyhow::Result;
use std::path::Path;
use workspace_tools::{outputs, Chapter};

/// Every chapter crate with an `examples/chNN-figures.rs` writes its figures into the book.
pub fn figures(root: &Path) -> Result<()> {
    for chapter in Chapter::all(root)? {
        if let Some(example) = chapter.figures_example() {
            cargo(root, &["run", "-p", &chapter.package, "--example", &example])?;
        }
    }
    Ok(())
}

/// Runs the example behind every `chapters/*/outputs/NAME.txt` and writes what it printed there.
///
/// To add one, create the (empty) file `chapters/<slug>/outputs/NAME.txt` for the example
/// `examples/NAME.rs`, run this, and include the file in the page.
pub fn outputs(root: &Path) -> Result<()> {
    let all = Chapter::all_outputs(root)?;
    let programs = outputs::Programs::build_for(root, &all.iter().collect::<Vec<_>>())?;
    for (i, output) in all.iter().enumerate() {
        let rel = output.path.strip_prefix(root).unwrap_or(&output.path);
        println!("[{}/{}] {} -> {}", i + 1, all.len(), output.command(), rel.display());
        let stdout = programs.run(root, output)?;
        std::fs::write(&output.path, output.expected(&stdout))?;
    }
    println!("outputs: {} files written", all.len());
    Ok(())
}

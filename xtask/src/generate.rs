//! Generated files the book includes: figures (SVG) and printed outputs (text).

use crate::run::{cargo, chapters};
use anyhow::Result;
use std::path::Path;
use workspace_checks::outputs;

/// Every chapter crate with an `examples/chNN-figures.rs` writes its figures into the book.
pub fn figures(root: &Path) -> Result<()> {
    for (dir, name) in chapters(root)? {
        let example = format!("ch{}-figures", &dir.file_name().unwrap().to_string_lossy()[..2]);
        if dir.join("examples").join(format!("{example}.rs")).exists() {
            cargo(root, &["run", "-p", &name, "--example", &example])?;
        }
    }
    Ok(())
}

/// Runs the example behind every `chapters/*/outputs/NAME.txt` and writes what it printed there.
///
/// To add one, create the (empty) file `chapters/NN-name/outputs/NAME.txt` for the example
/// `examples/NAME.rs`, run this, and include the file in the page.
pub fn outputs(root: &Path) -> Result<()> {
    let all = outputs::all(root)?;
    for (i, output) in all.iter().enumerate() {
        let rel = output.path.strip_prefix(root).unwrap_or(&output.path);
        println!("[{}/{}] {} -> {}", i + 1, all.len(), output.command(), rel.display());
        let stdout = outputs::run(root, output)?;
        std::fs::write(&output.path, output.expected(&stdout))?;
    }
    println!("outputs: {} files written", all.len());
    Ok(())
}

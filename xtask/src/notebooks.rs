//! Executes the notebooks headless on the evcxr kernel and checks what they printed.

use anyhow::{bail, Result};
use std::path::{Path, PathBuf};
use std::time::Instant;
use workspace_tools::{notebook, Chapter};

/// Executes the chapters' notebooks (all, or those whose slug contains `only`) and checks them.
pub fn notebooks(root: &Path, only: Option<&str>) -> Result<()> {
    let nbs: Vec<PathBuf> = Chapter::all(root)?
        .into_iter()
        .filter(|c| only.is_none_or(|o| c.slug.as_str().contains(o)))
        .map(|c| c.notebook)
        .collect();
    if nbs.is_empty() {
        bail!("no notebook matches {only:?}");
    }
    let mut failed = 0;
    for nb in &nbs {
        let start = Instant::now();
        println!("run   {} ...", nb.strip_prefix(root)?.display());
        let (executed, problems) = notebook::execute(nb, &root.join("target/notebooks"))?;
        let rel = executed.strip_prefix(root).unwrap_or(&executed);
        let first = notebook::read(&executed)
            .ok()
            .and_then(|nb| notebook::seconds_to_first_output(&nb))
            .map_or(String::new(), |s| format!(", first output after {s:.1} s"));
        if problems.is_empty() {
            println!(
                "ok    {} ({:.0?}{first}) -> {}",
                nb.strip_prefix(root)?.display(),
                start.elapsed(),
                rel.display()
            );
        } else {
            failed += 1;
            println!("FAIL  {}", nb.strip_prefix(root)?.display());
            for p in problems {
                println!("      {p}");
            }
        }
    }
    println!("notebooks: {} passed, {failed} failed", nbs.len() - failed);
    if failed > 0 {
        bail!("{failed} notebook(s) failed");
    }
    Ok(())
}

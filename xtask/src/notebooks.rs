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
    let start = Instant::now();
    for nb in &nbs {
        println!("run   {}", nb.strip_prefix(root)?.display());
    }
    // one run of Jupyter for all of them, each on a kernel of its own
    let paths: Vec<&Path> = nbs.iter().map(PathBuf::as_path).collect();
    let executed = notebook::execute_all(&paths, &root.join("target/notebooks"))?;
    let mut failed = 0;
    for (nb, (executed, problems)) in nbs.iter().zip(executed) {
        let rel = executed.strip_prefix(root).unwrap_or(&executed);
        let read = notebook::read(&executed).ok();
        let ran = read.as_ref().and_then(notebook::seconds_executing);
        let ran = ran.map_or(String::new(), |s| format!("{s:.0} s of cells"));
        let first = read
            .as_ref()
            .and_then(notebook::seconds_to_first_output)
            .map_or(String::new(), |s| format!(", first output after {s:.1} s"));
        if problems.is_empty() {
            println!(
                "ok    {} ({ran}{first}) -> {}",
                nb.strip_prefix(root)?.display(),
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
    println!("notebooks: {:.0?} in all", start.elapsed());
    println!("notebooks: {} passed, {failed} failed", nbs.len() - failed);
    if failed > 0 {
        bail!("{failed} notebook(s) failed");
    }
    Ok(())
}

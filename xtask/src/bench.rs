//! `cargo xtask bench`: every criterion benchmark, then chapter 8's book material from them:
//! `measurements/results.json` (times and peak memory, with the machine), its tables and plots.
//! `cargo xtask bench ch08` runs only chapter 8's benchmark.

use std::path::Path;

use anyhow::Result;

use crate::run;

pub fn bench(root: &Path, only: Option<&str>) -> Result<()> {
    match only {
        Some(chapter) => run::cargo(root, &["bench", "-p", &format!("{chapter}-efficient")])?,
        None => run::cargo(root, &["bench", "--workspace"])?,
    }
    let ch08 = ["run", "--release", "-p", "ch08-efficient", "--example"];
    run::cargo(root, &[&ch08[..], &["measurements"]].concat())?;
    run::cargo(root, &["run", "-p", "ch08-efficient", "--example", "ch08-figures"])?;
    println!("the PyTorch comparison: python3 chapters/08-efficient/compare/compare_pytorch.py");
    Ok(())
}

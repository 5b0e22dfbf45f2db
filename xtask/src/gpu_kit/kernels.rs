//! Chapter 8's own CUDA kernels compiled here, before any GPU: the chapter's `gpu_sources` example
//! writes what nvrtc compiles at run time, and `xtask/gpu-kit/nvrtc_check.py` compiles each with
//! the toolkit's nvrtc and ptxas (the same nvrtc 13.0 the GPU machine's PyTorch ships), failing
//! the kit on any error and reporting each kernel's registers, spills and shared memory.

use crate::run::{cargo, sh};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// Compiles every configuration for `sm_<compute_cap>`; returns the report's path.
pub fn check(root: &Path, cuda: &Path, compute_cap: u32) -> Result<PathBuf> {
    let dir = root.join("target/gpu-kernels");
    let sources = dir.join("sources");
    let sources_arg = sources.to_str().context("target path is not UTF-8")?;
    cargo(
        root,
        &["run", "-q", "-p", "ch08-efficient", "--example", "gpu_sources", "--", sources_arg],
    )?;
    let report = dir.join("kernels.txt");
    let script = root.join("xtask/gpu-kit/nvrtc_check.py");
    let text = |p: &Path| p.to_str().context("path is not UTF-8").map(str::to_string);
    let cap = compute_cap.to_string();
    sh("python3", &[&text(&script)?, sources_arg, &text(cuda)?, &cap, &text(&report)?])?;
    Ok(report)
}

//! `cargo xtask gpu-kit`: everything a GPU machine without Rust or a network needs to run the
//! test suite on its GPU, built here without one.
//!
//! 1. [`toolkit`]: the CUDA 13.0 toolkit from NVIDIA's PyPI wheels, in a cache folder (once).
//! 2. [`kernels`]: chapter 8's own CUDA kernels compiled with the toolkit's nvrtc and ptxas, as
//!    they will be on the GPU (a kernel that does not compile stops the kit here).
//! 3. [`build`](mod@build): every chapter's test binaries with `--features cuda`, in
//!    `target/cuda/`, for compute capability 90 (H100, H200) unless `--compute-cap N` says
//!    otherwise.
//! 4. [`pack`](mod@pack): the binaries stripped and compressed, with the data files they read,
//!    dfdx's kernel headers and the runner (`run.sh`, which needs only bash and python3), in
//!    `target/gpu-kit/kit/` (and `kit-2/`, … if they do not fit one call of 60 MiB).
//!
//! The kit is not part of `cargo xtask test`: CI has no GPU.

mod build;
mod kernels;
mod pack;
mod toolkit;

use anyhow::{bail, Context, Result};
use std::path::Path;

pub fn gpu_kit(root: &Path, args: &[String]) -> Result<()> {
    let compute_cap = match args {
        [] => 90,
        [flag, n] if flag == "--compute-cap" => {
            n.parse::<u32>().context("--compute-cap takes an integer, such as 90")?
        }
        _ => bail!("usage: cargo xtask gpu-kit [--compute-cap N]"),
    };
    let start = std::time::Instant::now();
    let cuda = toolkit::install(root)?;
    let kernels = kernels::check(root, &cuda, compute_cap)?;
    let binaries = build::build(root, &cuda, &root.join("target/cuda"), compute_cap)?;
    let timings = binaries.iter().filter(|b| b.timing).count();
    if timings != build::TIMINGS.len() || binaries.len() == timings {
        bail!("cargo built {} binaries, {timings} of them timing programs", binaries.len());
    }
    let out = root.join("target/gpu-kit");
    let parts = pack::pack(root, &out, &binaries, compute_cap)?;
    std::fs::copy(&kernels, parts[0].join("kernels.txt"))?;
    println!(
        "gpu-kit: {} test binaries and {timings} timing programs for sm_{compute_cap}, in {:.0?}",
        binaries.len() - timings,
        start.elapsed()
    );
    for part in &parts {
        let bytes: u64 = std::fs::read_dir(part.join("bin"))?
            .map(|e| Ok(e?.metadata()?.len()))
            .sum::<Result<u64>>()?;
        let rel = part.strip_prefix(root).unwrap_or(part);
        println!("  {} ({:.1} MiB of binaries)", rel.display(), bytes as f64 / 1048576.0);
    }
    println!(
        "on the GPU machine, with every part carried: bash target/gpu-kit/kit/run.sh \
         [--timings] (without a GPU it stops at the missing driver, libcuda.so.1)"
    );
    Ok(())
}

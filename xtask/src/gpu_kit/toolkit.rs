//! The CUDA 13.0 toolkit, from NVIDIA's PyPI wheels, in a cache folder: `nvcc` for dfdx's kernels,
//! the headers, and what the test binaries link against (nvrtc and cuBLAS from their wheels, and a
//! stub of the driver's `libcuda.so.1`, which no wheel ships: on the GPU machine the driver's own
//! library is loaded instead).
//!
//! The versions are pinned to 13.0: the lent GPU machines run driver 580 (CUDA 13.0), which refuses
//! the PTX of a newer `nvcc`.

use crate::run::{sh, works};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The wheels, pinned. The first five make the toolkit; the last two are linked against.
pub const WHEELS: [&str; 7] = [
    "nvidia-cuda-nvcc==13.0.88",
    "nvidia-nvvm==13.0.88",
    "nvidia-cuda-crt==13.0.88",
    "nvidia-cuda-runtime==13.0.96",
    "nvidia-cuda-cccl==13.0.85",
    "nvidia-cuda-nvrtc==13.0.88",
    "nvidia-cublas==13.0.2.14",
];

/// The libraries dfdx's CUDA path links (`-lcuda -lnvrtc -lcublas -lcublasLt`), as the versioned
/// files the wheels ship; `libcuda` is the stub.
const LINKED: [&str; 3] = ["libnvrtc.so.13", "libcublas.so.13", "libcublasLt.so.13"];

/// `CUDA_ROOT` of the toolkit: `bin/nvcc`, `include/`, `lib/`, `nvvm/`, and `lib64/stubs/libcuda.so`.
pub fn cuda_root() -> PathBuf {
    workspace_tools::cache_dir().join("cuda-13.0")
}

/// Installs the toolkit into [`cuda_root`] unless the same wheels are there already.
pub fn install(root: &Path) -> Result<PathBuf> {
    let cuda = cuda_root();
    let stamp = cuda.join("installed.txt");
    let want = WHEELS.join("\n") + "\n";
    if std::fs::read_to_string(&stamp).is_ok_and(|s| s == want) {
        println!("gpu-kit: CUDA 13.0 toolkit in {} (already there)", cuda.display());
        return Ok(cuda);
    }
    if !works("gcc", &["--version"]) {
        bail!("gcc is needed: nvcc calls it, and it builds the libcuda stub (apt-get install gcc)");
    }
    let python = ["python3", "python"]
        .into_iter()
        .find(|p| works(p, &["-m", "pip", "--version"]))
        .context("python3 with pip is needed to download the CUDA wheels")?;
    let wheels = cuda.join("wheels");
    std::fs::create_dir_all(&wheels)?;
    let mut args = vec!["-m", "pip", "download", "--quiet", "--no-deps", "-d"];
    args.push(wheels.to_str().context("cache path is not UTF-8")?);
    args.extend(WHEELS);
    sh(python, &args)?;
    unpack(python, &wheels, &cuda)?;
    for lib in LINKED {
        let unversioned = cuda.join("lib").join(lib.trim_end_matches(".13"));
        let _ = std::fs::remove_file(&unversioned);
        std::os::unix::fs::symlink(lib, &unversioned)?;
    }
    libcuda_stub(root, &cuda)?;
    std::fs::remove_dir_all(&wheels)?;
    std::fs::write(&stamp, want)?;
    println!("gpu-kit: CUDA 13.0 toolkit installed in {}", cuda.display());
    Ok(cuda)
}

/// Unpacks `nvidia/cu13/*` of every wheel into `cuda` (keeping the executable bits), leaving out
/// the libraries nothing here uses (cuBLAS's 0.5 GB `libcublasLt` is kept: it is linked).
fn unpack(python: &str, wheels: &Path, cuda: &Path) -> Result<()> {
    const SCRIPT: &str = r#"
import os, sys, zipfile, pathlib
wheels, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
skip = ("libnvblas", ".alt.so")
for wheel in sorted(wheels.glob("*.whl")):
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            name = info.filename
            if not name.startswith("nvidia/cu13/") or name.endswith("/") or any(s in name for s in skip):
                continue
            target = out / name[len("nvidia/cu13/"):]
            target.parent.mkdir(parents=True, exist_ok=True)
            with z.open(info) as src, open(target, "wb") as dst:
                dst.write(src.read())
            mode = (info.external_attr >> 16) & 0o777
            os.chmod(target, mode or 0o644)
"#;
    let status = Command::new(python)
        .args(["-c", SCRIPT])
        .arg(wheels)
        .arg(cuda)
        .status()
        .context("running python3 to unpack the wheels")?;
    if !status.success() {
        bail!("unpacking the CUDA wheels failed ({status})");
    }
    let nvcc = cuda.join("bin/nvcc");
    if !works(nvcc.to_str().unwrap_or("nvcc"), &["--version"]) {
        bail!("{} does not run after unpacking", nvcc.display());
    }
    Ok(())
}

/// `lib64/stubs/libcuda.so` (soname `libcuda.so.1`): one empty function for every driver function
/// cudarc declares, so that the test binaries link; it is never loaded.
fn libcuda_stub(root: &Path, cuda: &Path) -> Result<()> {
    let sys = cudarc_source(root)?.join("src/driver/sys.rs");
    let text =
        std::fs::read_to_string(&sys).with_context(|| format!("reading {}", sys.display()))?;
    let mut names: Vec<&str> = text
        .split("pub fn ")
        .skip(1)
        .filter_map(|rest| rest.split('(').next())
        .filter(|name| {
            name.starts_with("cu") && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    if names.len() < 100 {
        bail!("found only {} driver functions in {}", names.len(), sys.display());
    }
    let stubs = cuda.join("lib64/stubs");
    std::fs::create_dir_all(&stubs)?;
    let c = stubs.join("libcuda_stub.c");
    let body: String = names.iter().map(|n| format!("void {n}(void) {{}}\n")).collect();
    std::fs::write(&c, body)?;
    let so = stubs.join("libcuda.so");
    sh(
        "gcc",
        &[
            "-shared",
            "-fPIC",
            "-Wl,-soname,libcuda.so.1",
            "-o",
            so.to_str().context("cache path is not UTF-8")?,
            c.to_str().context("cache path is not UTF-8")?,
        ],
    )?;
    println!("gpu-kit: libcuda stub with {} functions", names.len());
    Ok(())
}

/// The folder of the cudarc crate this workspace builds, from `cargo metadata`.
fn cudarc_source(root: &Path) -> Result<PathBuf> {
    let out = Command::new(workspace_tools::cargo_program())
        .current_dir(root)
        .args(["metadata", "--format-version", "1", "--features", "support/cuda"])
        .output()
        .context("running cargo metadata")?;
    if !out.status.success() {
        bail!("cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let packages = meta["packages"].as_array().context("cargo metadata without packages")?;
    let cudarc = packages
        .iter()
        .find(|p| p["name"] == "cudarc")
        .context("cudarc is not in the dependency graph")?;
    let manifest = cudarc["manifest_path"].as_str().context("cudarc without a manifest path")?;
    Ok(Path::new(manifest).parent().context("manifest path")?.to_path_buf())
}

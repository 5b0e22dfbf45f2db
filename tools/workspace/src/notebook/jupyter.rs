//! Running a notebook headless with Jupyter on the evcxr kernel, from the project's Python venv.

use super::{check_executed, read, Problem};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The project's Python venv: `$AIR_VENV`, or `${XDG_CACHE_HOME:-~/.cache}/attention-in-rust/venv`.
pub fn venv_dir() -> PathBuf {
    if let Some(v) = std::env::var_os("AIR_VENV") {
        return PathBuf::from(v);
    }
    crate::cache_dir().join("venv")
}

/// The evcxr crate folder the notebooks share:
/// `${XDG_CACHE_HOME:-~/.cache}/attention-in-rust/evcxr/crate`. Outside the workspace: cargo
/// refuses a package inside the workspace's folder that is not one of its members.
pub fn evcxr_dir() -> PathBuf {
    crate::cache_dir().join("evcxr").join("crate")
}

/// Cargo's configuration for the crate folder, in the folder above it (evcxr writes the folder's
/// own `.cargo/config.toml`). Each cell's crate (evcxr names it `ctx`) is compiled at `opt-level`
/// 1 instead of evcxr's 2 for every crate: a cell is a few lines, but the generic code it calls is
/// compiled in it, and at 2 every cell paid for that again. dfdx's matrix product (gemm) without
/// its debug assertions and overflow checks, as in the workspace's `Cargo.toml`. Every crate
/// but the cell's own is compiled once per folder, so each in one codegen unit and without
/// incremental compilation's bookkeeping, as `.ci/run` builds the workspace: notebooks 1, 5 and 11
/// from an empty folder took about a tenth less processor time. The cell's crate keeps both
/// (evcxr needs it incremental). Measured on a 2-core AMD EPYC in CONTRIBUTING.md.
pub const EVCXR_CONFIG: &str = "\
[profile.dev.package.ctx]
opt-level = 1
[profile.dev.package.\"*\"]
codegen-units = 1
incremental = false
[profile.dev.package.gemm-common]
debug-assertions = false
overflow-checks = false
[profile.dev.package.gemm-f32]
debug-assertions = false
overflow-checks = false
";

fn write_evcxr_config(shared: &Path) -> Result<()> {
    let dir = shared.parent().context("the crate folder has a parent")?.join(".cargo");
    std::fs::create_dir_all(&dir)?;
    let config = dir.join("config.toml");
    if std::fs::read_to_string(&config).ok().as_deref() != Some(EVCXR_CONFIG) {
        std::fs::write(&config, EVCXR_CONFIG)?;
    }
    Ok(())
}

/// The venv's `jupyter`, or an error that says how to install it.
pub fn jupyter() -> Result<PathBuf> {
    let j = venv_dir().join("bin").join("jupyter");
    if !j.exists() {
        bail!(
            "{} not found: run `cargo xtask setup` to install Jupyter and the evcxr kernel",
            j.display()
        );
    }
    let kernels = Command::new(&j).args(["kernelspec", "list"]).output()?;
    if !String::from_utf8_lossy(&kernels.stdout)
        .lines()
        .any(|l| l.trim_start().starts_with("rust "))
    {
        bail!("Jupyter has no `rust` kernel: run `cargo xtask setup` (cargo install --locked evcxr_jupyter; evcxr_jupyter --install)");
    }
    Ok(j)
}

/// Executes `notebook` headless with the evcxr kernel (working directory: the notebook's folder),
/// writes the executed copy into `out_dir`, and returns the problems [`check_executed`] finds.
/// An `Err` means the notebook could not be run at all.
pub fn execute(notebook: &Path, out_dir: &Path) -> Result<(PathBuf, Vec<Problem>)> {
    let mut executed = execute_all(&[notebook], out_dir)?;
    Ok(executed.pop().expect("one notebook, one result"))
}

/// [`execute`] for several notebooks, one after the other, each on a kernel of its own, in one
/// run of Jupyter: its Python starts once, not once per notebook (about 2 s of processor time
/// each on a 2-core AMD EPYC). Returns each notebook's executed copy and problems, in order.
///
/// Every notebook shares one evcxr crate folder ([`evcxr_dir`], through `EVCXR_TMPDIR`), so the
/// chapter crates they share are compiled once, not once per notebook: evcxr's `:cache` keeps
/// only crates from crates.io, and compiles local ones (the chapter crates) anew in each kernel's
/// own temporary folder.
/// An `Err` means a notebook could not be run at all (the message names the first not written).
pub fn execute_all(notebooks: &[&Path], out_dir: &Path) -> Result<Vec<(PathBuf, Vec<Problem>)>> {
    let jupyter = jupyter()?;
    std::fs::create_dir_all(out_dir)?;
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    for notebook in notebooks {
        let notebook =
            notebook.canonicalize().with_context(|| format!("{} not found", notebook.display()))?;
        let name = notebook.file_name().context("notebook has no file name")?;
        let executed = out_dir.join(name);
        // an executed copy from an earlier run must not pass for this run's
        match std::fs::remove_file(&executed) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("removing {}", executed.display()))
            }
            _ => {}
        }
        inputs.push(notebook);
        outputs.push(executed);
    }
    let first = inputs.first().context("no notebook to execute")?;
    // nbconvert starts each notebook's kernel in that notebook's folder
    let dir = first.parent().context("notebook has no folder")?;
    let shared = evcxr_dir();
    std::fs::create_dir_all(&shared)?;
    write_evcxr_config(&shared)?;
    let status = Command::new(jupyter)
        .current_dir(dir)
        // evcxr loads each cell as a library it builds with cargo; with incremental compilation
        // turned off (`CARGO_INCREMENTAL=0`, as CI sets it) the cell's entry point is not found
        // ("dlsym failed") and every cell fails: the kernel always gets cargo's default
        .env_remove("CARGO_INCREMENTAL")
        // and with `.ci/run`'s one codegen unit per crate, chapter 5's `:dep` cell took 31.9 s
        // against 12.3 and every later cell longer: a cell is compiled incrementally, in units
        .env_remove("CARGO_PROFILE_DEV_CODEGEN_UNITS")
        .env("EVCXR_TMPDIR", &shared)
        .args([
            "nbconvert",
            "--to",
            "notebook",
            "--execute",
            "--allow-errors",
            "--ExecutePreprocessor.kernel_name=rust",
            "--ExecutePreprocessor.timeout=1800",
            "--output-dir",
        ])
        .arg(out_dir)
        .args(&inputs)
        .status()
        .context("running jupyter nbconvert")?;
    if !status.success() {
        let missing = inputs.iter().zip(&outputs).find(|(_, out)| !out.exists());
        match missing {
            Some((notebook, _)) => bail!(
                "jupyter nbconvert failed ({status}); {} was not executed",
                notebook.display()
            ),
            None => bail!("jupyter nbconvert failed ({status}) after executing every notebook"),
        }
    }
    outputs
        .into_iter()
        .map(|executed| {
            let problems = check_executed(&read(&executed)?)?;
            Ok((executed, problems))
        })
        .collect()
}

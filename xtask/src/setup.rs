//! Installs what the notebooks and the browser check need, skipping what is there.
//!
//! Building the evcxr kernel is minutes of compiling; the other installs are mostly downloads.
//! [`start`] sets the build going first and installs the rest beside it; [`EvcxrBuild::finish`]
//! waits for it and registers the kernel.

use crate::run::{apt_install, sh, works, Background};
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;
use workspace_tools::debian::BROWSER;

/// Everything, the evcxr kernel included (`cargo xtask setup`, and before `notebooks`).
pub fn setup() -> Result<()> {
    start()?.finish()
}

/// The lint tools, Jupyter and chromium, installed while the evcxr kernel builds; returns that
/// build, still running.
pub fn start() -> Result<EvcxrBuild> {
    lint_tools()?;
    let evcxr = EvcxrBuild::start()?;
    jupyter()?;
    chromium()?;
    Ok(evcxr)
}

/// rustfmt and clippy come with rustup's default profile; say how to add them if not.
fn lint_tools() -> Result<()> {
    for (tool, args) in [("rustfmt", ["fmt", "--version"]), ("clippy", ["clippy", "--version"])] {
        if works("cargo", &args) {
            println!("setup: {tool} (already there)");
        } else {
            println!("setup: adding the {tool} component");
            sh("rustup", &["component", "add", tool])
                .with_context(|| format!("`cargo {}` is missing", args[0]))?;
        }
    }
    Ok(())
}

fn jupyter() -> Result<()> {
    let venv = workspace_tools::notebook::venv_dir();
    let python = venv.join("bin/python");
    let jupyter = venv.join("bin/jupyter");
    if works(jupyter.to_str().unwrap(), &["nbconvert", "--version"]) {
        println!("setup: Jupyter in {} (already there)", venv.display());
        return Ok(());
    }
    println!("setup: creating the Python venv {} with Jupyter", venv.display());
    let py = ["python3", "python"].into_iter().find(|p| works(p, &["--version"])).context(
        "no python3 found: install Python 3 (with the venv module) to run the notebooks",
    )?;
    std::fs::create_dir_all(venv.parent().unwrap())?;
    sh(py, &["-m", "venv", venv.to_str().unwrap()])?;
    let python = python.to_str().unwrap();
    sh(python, &["-m", "pip", "install", "--upgrade", "pip"])?;
    sh(
        python,
        &["-m", "pip", "install", "jupyter", "nbconvert", "nbclient", "nbformat", "ipykernel"],
    )
}

/// The evcxr kernel's version, pinned so that a later release cannot change the notebooks' run.
const EVCXR: &str = "0.22.0";

/// The crates of evcxr's build that a notebook's run does not wait on, built unoptimised.
///
/// evcxr runs rust-analyzer on every cell to learn its variables' types. A profile of chapters 11
/// and 12's notebooks (`perf record`, the kernel's own code) puts that time in parsing and
/// expanding the dependencies' macros (`rowan`, `salsa`, the parser, token trees, name
/// resolution: those keep the release profile's level), and almost none in type inference
/// (`ra_ap_hir_ty`: 46 of chapter 12's 36,624 samples, yet 126 s of the build at `opt-level` 3,
/// its longest crate) or in evcxr's own code, the Jupyter protocol and its runtime.
///
/// * rust-analyzer's editor crates (completions, assists, diagnostics, structural search) and
///   the project model, read once at start-up: 381 s of processor time against 523;
/// * then type inference and the trait solver, the IDE database, evcxr and its Jupyter server,
///   tokio and zeromq, the regex engine, Markdown, TOML, `cargo metadata`, backtraces, file
///   watching, URLs and dates: 359 s against 652 with the first eight alone, 187 s against 342
///   on the clock, built one after the other on a 2-core AMD EPYC (AVX-512). Chapters 5, 11 and 12's notebooks, timed in
///   turn with `farm-bench`, 4 runs each: 1.06 times as long by the median (0.99 to 1.15, 1.04 in
///   processor time); in the profile of chapter 12's, type inference and the generic code of the
///   unoptimised crates took about 1.1 s more of its 73 s of processor time.
///
/// With every crate unoptimised it built in 171 s, and chapter 5's cells took 84 s instead of 21.
const UNOPTIMISED: [&str; 39] = [
    // rust-analyzer: the editor's crates and the project model
    "ra_ap_ide",
    "ra_ap_ide_assists",
    "ra_ap_ide_completion",
    "ra_ap_ide_diagnostics",
    "ra_ap_ide_ssr",
    "ra_ap_project_model",
    "ra_ap_test_fixture",
    "ra_ap_test_utils",
    // rust-analyzer: type inference, the trait solver, the semantic and IDE databases, file watching
    "ra_ap_hir_ty",
    "ra_ap_hir",
    "ra_ap_ide_db",
    "ra-ap-rustc_type_ir",
    "ra-ap-rustc_next_trait_solver",
    "ra_ap_vfs-notify",
    "notify",
    // evcxr, its Jupyter server and what they use between cells
    "evcxr",
    "evcxr_jupyter",
    "tokio",
    "zeromq",
    "futures-util",
    "regex-syntax",
    "regex-automata",
    "pulldown-cmark",
    "toml",
    "toml_parser",
    "winnow",
    "cargo_metadata",
    "backtrace",
    "object",
    "gimli",
    "chrono",
    "time",
    "rustix",
    "url",
    "idna",
    "tracing-subscriber",
    "petgraph",
    "scc",
    "sha2",
];

/// `cargo install evcxr_jupyter`, running beside the other installs (its output goes to a log
/// file, shown when it ends); `None` when the kernel is already installed. Dropped unfinished (an
/// install before it failed), it stops the build.
pub struct EvcxrBuild(Option<Background>);

impl EvcxrBuild {
    fn start() -> Result<Self> {
        if works("evcxr_jupyter", &["--help"]) {
            println!("setup: evcxr_jupyter (already there)");
            return Ok(Self(None));
        }
        println!("setup: building evcxr_jupyter {EVCXR} beside the other installs (about 3 minutes on 2 cores)");
        let cache = workspace_tools::cache_dir();
        // one codegen unit per crate: less work in all (519 against 576 s of processor time,
        // 4.5 against 4.9 minutes alone on a 2-core AMD EPYC), and the build runs beside others
        let mut args = vec!["install", "--locked", "--config", "profile.release.codegen-units=1"];
        let unoptimised = UNOPTIMISED.map(|c| format!("profile.release.package.{c}.opt-level=0"));
        args.extend(unoptimised.iter().flat_map(|c| ["--config", c.as_str()]));
        args.extend(["evcxr_jupyter", "--version", EVCXR]);
        Ok(Self(Some(Background::start(&cache, &args, cache.join("evcxr-install.log"))?)))
    }

    /// Whether the build has ended (or none ran): [`EvcxrBuild::finish`] then waits for nothing.
    pub fn has_ended(&mut self) -> bool {
        self.0.as_mut().is_none_or(Background::has_ended)
    }

    /// Waits for the build (if one runs) and registers the `rust` kernel with Jupyter.
    pub fn finish(mut self) -> Result<()> {
        if let Some(build) = self.0.take() {
            build.finish().with_context(|| format!("installing evcxr_jupyter {EVCXR}"))?;
        }
        register_kernel()
    }
}

fn register_kernel() -> Result<()> {
    let jupyter = workspace_tools::notebook::venv_dir().join("bin/jupyter");
    let kernels = Command::new(&jupyter).args(["kernelspec", "list"]).output()?;
    if String::from_utf8_lossy(&kernels.stdout).lines().any(|l| l.trim_start().starts_with("rust "))
    {
        println!("setup: Jupyter kernel `rust` (already registered)");
        Ok(())
    } else {
        sh("evcxr_jupyter", &["--install"])
    }
}

/// Chromium (`CHROME`, else Debian's), installed with apt-get when missing; returns its path.
/// Debian's is then proven to come, with its font, from the packages installed here.
pub fn chromium() -> Result<String> {
    if let Ok(chrome) = std::env::var("CHROME") {
        if !Path::new(&chrome).exists() {
            bail!("CHROME={chrome} does not exist: unset it to use Debian's chromium");
        }
        println!("setup: {chrome} (CHROME, yours)");
        return Ok(chrome);
    }
    let chromium = BROWSER.files[0].0;
    if BROWSER.present() {
        println!("setup: {chromium} (already there)");
    } else {
        println!("setup: installing Debian's chromium for the browser check and the diagrams");
        apt_install(BROWSER.packages).with_context(|| {
            format!("{chromium} is missing: install Chromium and set CHROME to its path")
        })?;
    }
    BROWSER.prove()?;
    Ok(chromium.to_string())
}

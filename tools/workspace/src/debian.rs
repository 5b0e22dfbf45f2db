//! What the suite installs from Debian's packages, and the proof that it is enough.
//!
//! Each install step names its packages and the files it then relies on. A machine that happens
//! to have a file from some other package would let a missing package go unnoticed (it did once:
//! `rustc-web` brings `/usr/bin/rustc`, and `/usr/bin/cargo` is the separate package `cargo-web`,
//! which the project's own machines had and a new one did not). So after each install, and each
//! time the step finds its files already there, [`Install::prove`] asks `dpkg -S` which package
//! owns each file, and fails unless it is one that the step itself installs.

use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;

/// One install step: the Debian packages it installs and the files it relies on afterwards.
#[derive(Clone, Copy, Debug)]
pub struct Install {
    /// The step, as a reader knows it.
    pub step: &'static str,
    /// What `apt-get install` is given.
    pub packages: &'static [&'static str],
    /// Each file the step then uses, with the package of `packages` that must own it.
    pub files: &'static [(&'static str, &'static str)],
}

/// `cargo xtask wasm` without rustup's wasm target: Debian's compiler, cargo, the standard
/// library's source (built for the target with `-Zbuild-std`) and the WebAssembly linker.
pub const WEB_TOOLCHAIN: Install = Install {
    step: "cargo xtask wasm (Debian's toolchain for wasm32-unknown-unknown)",
    packages: &["rustc-web", "cargo-web", "rust-web-src", "lld"],
    files: &[
        ("/usr/bin/rustc", "rustc-web"),
        ("/usr/bin/cargo", "cargo-web"),
        ("/usr/lib/rustlib/src/rust/library/Cargo.lock", "rust-web-src"),
        ("/usr/bin/wasm-ld", "lld"),
    ],
};

/// The browser check and the book's screenshots: Debian's Chromium and a font for its text.
pub const BROWSER: Install = Install {
    step: "cargo xtask setup (Chromium for the browser check)",
    packages: &["chromium", "fonts-dejavu-core"],
    files: &[
        ("/usr/bin/chromium", "chromium"),
        ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "fonts-dejavu-core"),
    ],
};

/// Every install step of the suite.
pub const INSTALLS: [Install; 2] = [WEB_TOOLCHAIN, BROWSER];

/// The target the book's widgets are compiled for.
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// Whether the `rustc` on the path has [`WASM_TARGET`]'s standard library (rustup's, after
/// `rustup target add wasm32-unknown-unknown`). Then `cargo xtask wasm` builds with it, and
/// Debian's web toolchain is neither installed nor used.
pub fn rustup_has_wasm_target() -> bool {
    rustup_wasm_library().is_some_and(|lib| lib.is_dir())
}

/// Where the `rustc` on the path keeps [`WASM_TARGET`]'s standard library, if it has a sysroot.
pub fn rustup_wasm_library() -> Option<std::path::PathBuf> {
    let out = Command::new("rustc").args(["--print", "sysroot"]).output().ok()?;
    let sysroot = String::from_utf8_lossy(&out.stdout).trim().to_string();
    Some(Path::new(&sysroot).join("lib/rustlib").join(WASM_TARGET).join("lib"))
}

impl Install {
    /// Whether every file the step relies on is there (whoever put it there).
    pub fn present(&self) -> bool {
        self.files.iter().all(|(file, _)| Path::new(file).exists())
    }

    /// Checks that each file is there and owned by the package the table names, and that this
    /// package is one the step installs.
    ///
    /// # Errors
    /// Names the file, its owner (or that none owns it) and the package the step should install.
    pub fn prove(&self) -> Result<()> {
        for &(file, package) in self.files {
            if !self.packages.contains(&package) {
                bail!("{}: {file} is said to come from {package}, which the step does not install ({})",
                    self.step, self.packages.join(" "));
            }
            if !Path::new(file).exists() {
                bail!(
                    "{}: {file} is missing after installing {}",
                    self.step,
                    self.packages.join(" ")
                );
            }
            // as named (a link such as `/usr/bin/wasm-ld` belongs to the package that made it),
            // and with every link resolved (a file reached through a linked folder is listed by
            // dpkg under its real path)
            let mut found = owners(file)?;
            let real = std::fs::canonicalize(file)?;
            found.extend(owners(&real.to_string_lossy())?);
            found.dedup();
            if !found.iter().any(|o| o == package) {
                bail!(
                    "{}: {file} belongs to {}, not to {package}: a package that happened to be on \
                     this machine gave it, and a new machine would lack it",
                    self.step,
                    if found.is_empty() { "no package".to_string() } else { found.join(", ") }
                );
            }
        }
        Ok(())
    }
}

/// The packages `dpkg -S` names as owning `file` (architecture suffixes removed); empty when no
/// package owns it.
///
/// # Errors
/// If `dpkg` cannot be run.
pub fn owners(file: &str) -> Result<Vec<String>> {
    let out = Command::new("dpkg")
        .args(["-S", file])
        .output()
        .context("running `dpkg -S` (the install proof needs Debian's dpkg)")?;
    Ok(parse_owners(&String::from_utf8_lossy(&out.stdout), file))
}

/// The owners in `dpkg -S`'s output for `file`: lines `pkg1, pkg2:amd64: /path`. Diversions
/// (`diversion by X from: /path`) are not owners.
pub fn parse_owners(output: &str, file: &str) -> Vec<String> {
    let suffix = format!(": {file}");
    output
        .lines()
        .filter_map(|line| line.strip_suffix(&suffix))
        .filter(|owners| !owners.starts_with("diversion by"))
        .flat_map(|owners| owners.split(", "))
        .map(|p| p.split(':').next().unwrap_or(p).trim().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners_are_read_from_dpkgs_lines() {
        let out = "cargo-web: /usr/bin/cargo\n";
        assert_eq!(parse_owners(out, "/usr/bin/cargo"), ["cargo-web"]);
        let out = "libc6:amd64, libc6-dev:amd64: /usr/lib/x\n";
        assert_eq!(parse_owners(out, "/usr/lib/x"), ["libc6", "libc6-dev"]);
        let out = "diversion by dash from: /bin/sh\ndash: /bin/sh\n";
        assert_eq!(parse_owners(out, "/bin/sh"), ["dash"]);
        assert!(parse_owners("", "/usr/bin/cargo").is_empty());
    }

    #[test]
    fn every_files_package_is_one_its_step_installs() {
        for install in INSTALLS {
            assert!(!install.files.is_empty(), "{}", install.step);
            for (file, package) in install.files {
                assert!(file.starts_with('/'), "{file}");
                assert!(install.packages.contains(package), "{}: {package}", install.step);
            }
        }
    }
}

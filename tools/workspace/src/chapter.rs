//! A chapter and everything named by its slug.

use crate::manifest;
use crate::outputs::Output;
use anyhow::{bail, Context, Result};
use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

/// A chapter's name: its two-digit number, a dash and lowercase words joined by dashes
/// (`04-positions`). The crate's folder, the page and the notebook are all named by it, and the
/// package is `ch` followed by it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Slug {
    number: u32,
    text: String,
}

impl Slug {
    /// Parses `NN-words`: two digits (01 to 99), then one or more dash-separated words of
    /// lowercase letters and digits.
    pub fn parse(text: &str) -> Result<Slug> {
        let rule = "a chapter slug is two digits, a dash and lowercase words joined by dashes, \
                    such as `10-language-models`";
        let Some((digits, name)) = text.split_once('-') else {
            bail!("`{text}` is not a chapter slug: {rule}");
        };
        let number = match digits.parse::<u32>() {
            Ok(n) if digits.len() == 2 && n > 0 => n,
            _ => bail!("`{text}` does not start with a chapter number 01 to 99: {rule}"),
        };
        let word_ok = |w: &str| {
            !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        };
        if !name.split('-').all(word_ok) || !name.starts_with(|c: char| c.is_ascii_lowercase()) {
            bail!("`{text}` has a name that is not lowercase words joined by dashes: {rule}");
        }
        Ok(Slug { number, text: text.to_string() })
    }

    /// The chapter's number (`4` for `04-positions`).
    pub fn number(&self) -> u32 {
        self.number
    }

    /// The slug as written (`04-positions`).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The package name of the chapter's crate (`ch04-positions`).
    pub fn package(&self) -> String {
        format!("ch{}", self.text)
    }
}

impl fmt::Display for Slug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// One chapter of the book, found by its crate's folder `chapters/<slug>/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chapter {
    /// The folder's name.
    pub slug: Slug,
    /// `<root>/chapters/<slug>`
    pub dir: PathBuf,
    /// The package name its `Cargo.toml` declares (the layout check wants `ch<slug>`).
    pub package: String,
    /// `<root>/book/src/<slug>.md`, whether it exists or not.
    pub page: PathBuf,
    /// `<root>/notebooks/<slug>.ipynb`, whether it exists or not.
    pub notebook: PathBuf,
}

impl Chapter {
    /// The chapter whose crate is `<root>/chapters/<slug>`.
    pub fn new(root: &Path, slug: Slug) -> Result<Chapter> {
        let dir = root.join("chapters").join(slug.as_str());
        Ok(Chapter {
            package: manifest::package_name(&dir)?,
            page: root.join("book/src").join(format!("{slug}.md")),
            notebook: root.join("notebooks").join(format!("{slug}.ipynb")),
            dir,
            slug,
        })
    }

    /// Every chapter under `<root>/chapters/`, in order. A folder there whose name is not a slug
    /// is an error.
    pub fn all(root: &Path) -> Result<Vec<Chapter>> {
        let dir = root.join("chapters");
        let mut slugs = Vec::new();
        for entry in
            std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))?
        {
            let name = entry?.file_name().to_string_lossy().to_string();
            slugs.push(Slug::parse(&name).context("in chapters/")?);
        }
        slugs.sort();
        slugs.into_iter().map(|slug| Chapter::new(root, slug)).collect()
    }

    /// Every chapter's printed outputs, in chapter order.
    pub fn all_outputs(root: &Path) -> Result<Vec<Output>> {
        let mut out = Vec::new();
        for chapter in Chapter::all(root)? {
            out.extend(chapter.outputs()?);
        }
        Ok(out)
    }

    /// The chapter's number.
    pub fn number(&self) -> u32 {
        self.slug.number()
    }

    /// Its example programs.
    pub fn examples(&self) -> BTreeSet<String> {
        manifest::examples(&self.dir)
    }

    /// The example that writes its figures into the book (`chNN-figures`), if it has one.
    pub fn figures_example(&self) -> Option<String> {
        let name = format!("ch{:02}-figures", self.number());
        self.examples().contains(&name).then_some(name)
    }

    /// Its printed outputs, `outputs/*.txt`, in file-name order (none without an `outputs/`).
    pub fn outputs(&self) -> Result<Vec<Output>> {
        let folder = self.dir.join("outputs");
        if !folder.is_dir() {
            return Ok(Vec::new());
        }
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)?
            .map(|e| e.map(|e| e.path()))
            .collect::<std::io::Result<_>>()?;
        files.retain(|p| p.extension().is_some_and(|e| e == "txt"));
        files.sort();
        files.into_iter().map(|path| Output::new(&self.dir, &self.package, path)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        let s = Slug::parse("04-positions").unwrap();
        assert_eq!(
            (s.number(), s.as_str(), s.package()),
            (4, "04-positions", "ch04-positions".into())
        );
        assert_eq!(Slug::parse("10-language-models2").unwrap().number(), 10);
        for bad in [
            "4-positions",
            "004-x",
            "00-zero",
            "04",
            "04-",
            "04-Positions",
            "04-two--dashes",
            "04-x_y",
            "ab-cd",
            "04-9lives",
        ] {
            assert!(Slug::parse(bad).is_err(), "{bad} was accepted");
        }
    }
}

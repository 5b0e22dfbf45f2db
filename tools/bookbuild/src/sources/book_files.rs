//! Checks of the files that concern the whole book: `book.toml`, the KaTeX assets and the chapter
//! list in `SUMMARY.md`.

use crate::scan::summary_links;
use crate::Problem;
use mdbook_driver::config::Config;
use mdbook_katex::cfg::KatexConfig;
use regex::Regex;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// Checks that `<book>/book.toml` loads and that the files it lists in `additional-css` /
/// `additional-js` exist. Returns the KaTeX settings it holds (the defaults when it does not load).
pub(super) fn check_book_toml(
    book: &Path,
    rel: &impl Fn(&Path) -> PathBuf,
    problems: &mut Vec<Problem>,
) -> KatexConfig {
    let toml_path = book.join("book.toml");
    let mut katex_cfg = KatexConfig::default();
    if !toml_path.is_file() {
        problems.push(Problem { file: rel(&toml_path), line: 0, message: "missing".into() });
    } else {
        match Config::from_disk(&toml_path) {
            Err(e) => problems.push(Problem {
                file: rel(&toml_path),
                line: 0,
                message: format!("does not load: {e:#}"),
            }),
            Ok(config) => {
                katex_cfg = mdbook_katex::cfg::get_config(&config).unwrap_or_default();
                match config.html_config() {
                    None => {}
                    Some(html) => {
                        for file in html.additional_css.iter().chain(&html.additional_js) {
                            if !book.join(file).is_file() {
                                problems.push(Problem {
                                    file: rel(&toml_path),
                                    line: 0,
                                    message: format!(
                                        "additional file `{}` does not exist",
                                        file.display()
                                    ),
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    katex_cfg
}

/// Checks that KaTeX's stylesheet `<src>/katex/katex.min.css` and the `.woff2` fonts it names
/// exist.
pub(super) fn check_katex_assets(
    src: &Path,
    rel: &impl Fn(&Path) -> PathBuf,
    problems: &mut Vec<Problem>,
) {
    let katex_css = src.join("katex").join("katex.min.css");
    match std::fs::read_to_string(&katex_css) {
        Err(_) => problems.push(Problem {
            file: rel(&katex_css),
            line: 0,
            message: "missing: math needs KaTeX's stylesheet and fonts \
                      (`npm pack katex@0.16.4`, copy dist/katex.min.css and dist/fonts/*.woff2)"
                .into(),
        }),
        Ok(css) => {
            static FONT: LazyLock<Regex> =
                LazyLock::new(|| Regex::new(r"url\((fonts/[^)]+\.woff2)\)").unwrap());
            for cap in FONT.captures_iter(&css) {
                let font = src.join("katex").join(&cap[1]);
                if !font.is_file() {
                    problems.push(Problem {
                        file: rel(&katex_css),
                        line: 0,
                        message: format!("font `{}` is missing", &cap[1]),
                    });
                }
            }
        }
    }
}

/// Checks that `SUMMARY.md` (at `summary_path`) loads and that every chapter it lists exists
/// under `src`.
pub(super) fn check_summary(
    summary_path: &Path,
    src: &Path,
    rel: &impl Fn(&Path) -> PathBuf,
    problems: &mut Vec<Problem>,
) {
    match std::fs::read_to_string(summary_path) {
        Err(e) => problems.push(Problem {
            file: rel(summary_path),
            line: 0,
            message: format!("cannot read: {e}"),
        }),
        Ok(text) => match mdbook_summary::parse_summary(&text) {
            Err(e) => problems.push(Problem {
                file: rel(summary_path),
                line: 0,
                message: format!("does not parse: {e:#}"),
            }),
            Ok(summary) => {
                for (title, location) in summary_links(&summary) {
                    if !src.join(&location).is_file() {
                        let needle = format!("]({})", location.display());
                        let line =
                            text.lines().position(|l| l.contains(&needle)).map_or(0, |i| i + 1);
                        problems.push(Problem {
                            file: rel(summary_path),
                            line,
                            message: format!(
                                "chapter `{title}` is listed but its file `{}` does not exist",
                                rel(&src.join(&location)).display()
                            ),
                        });
                    }
                }
            }
        },
    }
}

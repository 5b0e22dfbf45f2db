//! Plots rendered to SVG with plotters: attention heatmaps, bar charts and line charts.
//!
//! Every plot renders to an [`Svg`], which
//! * shows itself inline in an evcxr notebook (it has an `evcxr_display` method),
//! * and can be written to a file for the book (`cargo xtask figures`).
//!
//! * [`Heatmap`] (`heatmap.rs`), [`BarChart`] (`bar.rs`), [`LineChart`] (`line.rs`): the three kinds;
//! * [`side_by_side`] (`grid.rs`): figures of one size in a grid, as one SVG;
//! * [`assert_figures_current`]: the book's figures are what the code draws now.
//!
//! Text is laid out with a bundled DejaVu Sans font (ab_glyph), so the output is the same on
//! every machine and needs no system fonts.

mod bar;
mod grid;
mod heatmap;
mod line;

pub use bar::BarChart;
pub use grid::side_by_side;
pub use heatmap::Heatmap;
pub use line::LineChart;

use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
static REGISTER: Once = Once::new();

fn ensure_font() {
    REGISTER.call_once(|| {
        for style in [FontStyle::Normal, FontStyle::Bold, FontStyle::Italic, FontStyle::Oblique] {
            plotters::style::register_font("sans-serif", style, FONT)
                .unwrap_or_else(|_| panic!("the bundled DejaVu Sans font could not be parsed"));
        }
    });
}

/// An SVG document. In evcxr it displays as an image; elsewhere write it with [`Svg::save`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Svg(pub String);

impl Svg {
    /// Writes the SVG to `path`, creating parent folders.
    pub fn save(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        let path = path.as_ref();
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, &self.0)
    }

    /// The SVG text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Called by the evcxr kernel to show the value of a cell: prints the SVG as an image.
    pub fn evcxr_display(&self) {
        println!("EVCXR_BEGIN_CONTENT image/svg+xml\n{}\nEVCXR_END_CONTENT", self.0);
    }
}

pub(crate) fn render(
    width: u32,
    height: u32,
    draw: impl FnOnce(
        &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    ) -> Result<(), Box<dyn std::error::Error>>,
) -> Svg {
    ensure_font();
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        root.fill(&WHITE).expect("filling an SVG background cannot fail");
        draw(&root).unwrap_or_else(|e| panic!("plotting failed: {e}"));
        root.present().expect("finishing an SVG cannot fail");
    }
    Svg(out)
}

/// The book's figure folder, `book/src/figures/`, where every chapter's figures go.
pub fn book_figures_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/src/figures")
}

/// Writes `figures` into [`book_figures_dir`], naming each file written: what every chapter's
/// `chNN-figures` example does (`cargo xtask figures` runs them all).
pub fn write_book_figures<N: AsRef<str>>(figures: &[(N, Svg)]) -> std::io::Result<()> {
    let dir = book_figures_dir();
    for (name, svg) in figures {
        svg.save(dir.join(name.as_ref()))?;
        println!("wrote book/src/figures/{}", name.as_ref());
    }
    Ok(())
}

/// The test every chapter has, `book_figures_are_current`: the figures in the book are exactly
/// what `$figures` (the chapter's `figures::all(..)`) draws now. Ignored under the `cuda` feature:
/// the committed figures are drawn on the CPU, and GPU arithmetic may differ in the last bits.
#[macro_export]
macro_rules! book_figures_test {
    ($figures:expr) => {
        #[test]
        #[cfg_attr(
            feature = "cuda",
            ignore = "the committed figures are drawn on the CPU; GPU arithmetic may differ in the last bits"
        )]
        fn book_figures_are_current() {
            $crate::assert_figures_current($crate::book_figures_dir(), &$figures);
        }
    };
}

/// Asserts that every figure in `figures` is byte-for-byte the file of the same name in `dir`:
/// the book shows what the code draws now. On a mismatch, `cargo xtask figures` regenerates them.
#[track_caller]
pub fn assert_figures_current<N: AsRef<str>>(dir: impl AsRef<Path>, figures: &[(N, Svg)]) {
    let dir = dir.as_ref();
    assert!(!figures.is_empty(), "assert_figures_current: no figures given");
    for (name, svg) in figures {
        let path = dir.join(name.as_ref());
        let committed = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}; run `cargo xtask figures`", path.display()));
        assert!(
            committed == svg.0,
            "{} differs from what the code draws now; run `cargo xtask figures`",
            path.display()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heatmap_prints_every_cell_and_label() {
        let svg = Heatmap::new("w", vec![0.1, 0.9, 0.5, 0.5], 2, 2)
            .labels(&["a", "b"], &["c", "d"])
            .to_svg();
        let s = svg.as_str().replace('\n', "");
        assert!(s.starts_with("<svg"), "not an SVG: {}", &s[..40.min(s.len())]);
        for text in ["0.10", "0.90", "0.50", ">a<", ">b<", ">c<", ">d<", ">w<"] {
            assert!(s.contains(text), "heatmap SVG lacks {text}");
        }
    }

    #[test]
    fn rendering_is_deterministic() {
        let a = Heatmap::new("w", vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 2, 3).to_svg();
        let b = Heatmap::new("w", vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 2, 3).to_svg();
        assert_eq!(a, b);
    }

    #[test]
    #[should_panic(expected = "do not fill a 2x2 matrix")]
    fn heatmap_rejects_wrong_size() {
        Heatmap::new("w", vec![0.0; 3], 2, 2);
    }

    #[test]
    fn charts_render_their_legends() {
        let bars = BarChart::new("b", &["x", "y"]).series("first", vec![1.0, 2.0]).to_svg();
        assert!(bars.as_str().replace('\n', "").contains(">first<"));
        let lines =
            LineChart::new("l", "x", "y").line("curve", vec![(0.0, 0.0), (1.0, 1.0)]).to_svg();
        assert!(lines.as_str().replace('\n', "").contains(">curve<"));
    }
}

//! Plots rendered to SVG with plotters: attention heatmaps, bar charts and line charts.
//!
//! Every plot renders to an [`Svg`], which
//! * shows itself inline in an evcxr notebook (it has an `evcxr_display` method),
//! * and can be written to a file for the book (`cargo xtask figures`).
//!
//! Text is laid out with a bundled DejaVu Sans font (ab_glyph), so the output is the same on
//! every machine and needs no system fonts.

use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;
use std::path::Path;
use std::sync::Once;

static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
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

fn render(
    width: u32,
    height: u32,
    draw: impl FnOnce(
        &DrawingArea<SVGBackend, plotters::coord::Shift>,
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

/// A matrix of attention weights (rows = queries, columns = keys) drawn as coloured cells with the
/// value printed in each cell.
#[derive(Clone, Debug)]
pub struct Heatmap {
    pub title: String,
    pub values: Vec<f32>,
    pub rows: usize,
    pub cols: usize,
    pub row_labels: Vec<String>,
    pub col_labels: Vec<String>,
    /// Digits printed in each cell; `None` prints nothing (for large matrices).
    pub decimals: Option<usize>,
    /// Colour scale bounds; `None` uses the data's min and max.
    pub range: Option<(f32, f32)>,
    pub x_desc: String,
    pub y_desc: String,
    /// Label every n-th row and column only (for large matrices).
    pub tick_every: usize,
}

impl Heatmap {
    /// A heatmap of a row-major `rows x cols` matrix with numbered rows and columns.
    pub fn new(title: impl Into<String>, values: Vec<f32>, rows: usize, cols: usize) -> Self {
        assert_eq!(
            values.len(),
            rows * cols,
            "Heatmap::new: {} values do not fill a {rows}x{cols} matrix",
            values.len()
        );
        Self {
            title: title.into(),
            values,
            rows,
            cols,
            row_labels: (0..rows).map(|i| i.to_string()).collect(),
            col_labels: (0..cols).map(|i| i.to_string()).collect(),
            decimals: if rows * cols <= 144 { Some(2) } else { None },
            range: None,
            x_desc: "key".into(),
            y_desc: "query".into(),
            tick_every: 1,
        }
    }

    /// Names the rows and the columns (e.g. the tokens of a sentence).
    pub fn labels<S: ToString>(mut self, rows: &[S], cols: &[S]) -> Self {
        assert_eq!(
            rows.len(),
            self.rows,
            "Heatmap::labels: {} row labels for {} rows",
            rows.len(),
            self.rows
        );
        assert_eq!(
            cols.len(),
            self.cols,
            "Heatmap::labels: {} column labels for {} columns",
            cols.len(),
            self.cols
        );
        self.row_labels = rows.iter().map(|s| s.to_string()).collect();
        self.col_labels = cols.iter().map(|s| s.to_string()).collect();
        self
    }

    /// Sets the digits printed in each cell (`None` for no numbers).
    pub fn decimals(mut self, decimals: Option<usize>) -> Self {
        self.decimals = decimals;
        self
    }

    /// Fixes the colour scale (e.g. `(0.0, 1.0)` for attention weights).
    pub fn range(mut self, lo: f32, hi: f32) -> Self {
        self.range = Some((lo, hi));
        self
    }

    /// Names the axes (defaults: "key" across, "query" down).
    pub fn axes(mut self, x: impl Into<String>, y: impl Into<String>) -> Self {
        self.x_desc = x.into();
        self.y_desc = y.into();
        self
    }

    /// Labels only every `n`-th row and column.
    pub fn tick_every(mut self, n: usize) -> Self {
        assert!(n > 0, "Heatmap::tick_every: n must be at least 1");
        self.tick_every = n;
        self
    }

    /// Renders the heatmap as SVG.
    pub fn to_svg(&self) -> Svg {
        let cell = (480 / self.cols.max(self.rows)).clamp(8, 90) as u32;
        let width = 140 + cell * self.cols as u32;
        let height = 110 + cell * self.rows as u32;
        let finite: Vec<f32> = self.values.iter().copied().filter(|v| v.is_finite()).collect();
        let (lo, hi) = self.range.unwrap_or_else(|| {
            let lo = finite.iter().copied().fold(f32::INFINITY, f32::min);
            let hi = finite.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            if lo.is_finite() {
                (lo, hi)
            } else {
                (0.0, 1.0)
            }
        });
        render(width, height, |root| {
            let mut chart = ChartBuilder::on(root)
                .caption(&self.title, ("sans-serif", 18))
                .margin(8)
                .x_label_area_size(40)
                .y_label_area_size(70)
                .build_cartesian_2d(
                    (0..self.cols - 1).into_segmented(),
                    (0..self.rows - 1).into_segmented(),
                )?;
            let rows = self.rows;
            let every = self.tick_every;
            let centre = |v: &SegmentValue<usize>| match v {
                SegmentValue::CenterOf(i) => Some(*i),
                _ => None,
            };
            chart
                .configure_mesh()
                .disable_mesh()
                .x_labels(self.cols)
                .y_labels(self.rows)
                .x_label_formatter(&|x| {
                    centre(x)
                        .filter(|c| c % every == 0)
                        .and_then(|c| self.col_labels.get(c))
                        .cloned()
                        .unwrap_or_default()
                })
                .y_label_formatter(&|y| {
                    // row 0 at the top, like a printed matrix
                    centre(y)
                        .and_then(|y| rows.checked_sub(1 + y))
                        .filter(|r| r % every == 0)
                        .and_then(|r| self.row_labels.get(r))
                        .cloned()
                        .unwrap_or_default()
                })
                .x_desc(&self.x_desc)
                .y_desc(&self.y_desc)
                .label_style(("sans-serif", 12))
                .draw()?;
            let span = if hi > lo { hi - lo } else { 1.0 };
            chart.draw_series(
                (0..self.rows).flat_map(|r| (0..self.cols).map(move |c| (r, c))).map(|(r, c)| {
                    let v = self.values[r * self.cols + c];
                    let color = if v.is_finite() {
                        ViridisRGB::get_color(((v - lo) / span).clamp(0.0, 1.0))
                    } else {
                        RGBColor(200, 200, 200)
                    };
                    let y = self.rows - 1 - r;
                    Rectangle::new(
                        [
                            (SegmentValue::Exact(c), SegmentValue::Exact(y)),
                            (SegmentValue::Exact(c + 1), SegmentValue::Exact(y + 1)),
                        ],
                        color.filled(),
                    )
                }),
            )?;
            if let Some(d) = self.decimals {
                let font_px = (cell as f64 * 0.28).clamp(8.0, 14.0);
                for r in 0..self.rows {
                    for c in 0..self.cols {
                        let v = self.values[r * self.cols + c];
                        let t = if v.is_finite() { ((v - lo) / span).clamp(0.0, 1.0) } else { 0.5 };
                        let ink = if t > 0.6 { BLACK } else { WHITE };
                        let text = if v.is_nan() { "NaN".to_string() } else { format!("{v:.d$}") };
                        let style = TextStyle::from(("sans-serif", font_px).into_font())
                            .color(&ink)
                            .pos(plotters::style::text_anchor::Pos::new(
                                plotters::style::text_anchor::HPos::Center,
                                plotters::style::text_anchor::VPos::Center,
                            ));
                        let (px, py) = chart.backend_coord(&(
                            SegmentValue::Exact(c),
                            SegmentValue::Exact(self.rows - 1 - r),
                        ));
                        let (qx, qy) = chart.backend_coord(&(
                            SegmentValue::Exact(c + 1),
                            SegmentValue::Exact(self.rows - r),
                        ));
                        root.draw_text(&text, &style, ((px + qx) / 2, (py + qy) / 2))?;
                    }
                }
            }
            Ok(())
        })
    }

    /// Shows the heatmap in an evcxr notebook.
    pub fn evcxr_display(&self) {
        self.to_svg().evcxr_display()
    }
}

/// Grouped bars: one group per category, one bar per series.
#[derive(Clone, Debug)]
pub struct BarChart {
    pub title: String,
    pub categories: Vec<String>,
    pub series: Vec<(String, Vec<f32>)>,
    pub y_desc: String,
    pub y_range: Option<(f32, f32)>,
}

impl BarChart {
    pub fn new<S: ToString>(title: impl Into<String>, categories: &[S]) -> Self {
        Self {
            title: title.into(),
            categories: categories.iter().map(|s| s.to_string()).collect(),
            series: Vec::new(),
            y_desc: String::new(),
            y_range: None,
        }
    }

    /// Adds a series with one value per category.
    pub fn series(mut self, name: impl Into<String>, values: Vec<f32>) -> Self {
        assert_eq!(
            values.len(),
            self.categories.len(),
            "BarChart::series: {} values for {} categories",
            values.len(),
            self.categories.len()
        );
        self.series.push((name.into(), values));
        self
    }

    pub fn y_desc(mut self, d: impl Into<String>) -> Self {
        self.y_desc = d.into();
        self
    }

    pub fn y_range(mut self, lo: f32, hi: f32) -> Self {
        self.y_range = Some((lo, hi));
        self
    }

    pub fn to_svg(&self) -> Svg {
        let n_series = self.series.len().max(1);
        let all = self.series.iter().flat_map(|(_, v)| v.iter().copied());
        let (lo, hi) = self.y_range.unwrap_or_else(|| {
            let hi = all.fold(0.0f32, f32::max);
            (0.0, if hi > 0.0 { hi * 1.1 } else { 1.0 })
        });
        let slots = self.categories.len() * (n_series + 1);
        render(640, 360, |root| {
            let mut chart = ChartBuilder::on(root)
                .caption(&self.title, ("sans-serif", 18))
                .margin(10)
                .x_label_area_size(36)
                .y_label_area_size(52)
                .build_cartesian_2d(0..slots, lo..hi)?;
            let k = n_series + 1;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(slots)
                .x_label_formatter(&|x| {
                    if x % k == n_series / 2 {
                        self.categories.get(x / k).cloned().unwrap_or_default()
                    } else {
                        String::new()
                    }
                })
                .y_desc(&self.y_desc)
                .label_style(("sans-serif", 12))
                .draw()?;
            for (s, (name, values)) in self.series.iter().enumerate() {
                let color = Palette99::pick(s).to_rgba();
                chart
                    .draw_series(values.iter().enumerate().map(|(c, v)| {
                        let x = c * k + s;
                        Rectangle::new([(x, 0.0), (x + 1, *v)], color.filled())
                    }))?
                    .label(name.as_str())
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled())
                    });
            }
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .label_font(("sans-serif", 12))
                .draw()?;
            Ok(())
        })
    }

    pub fn evcxr_display(&self) {
        self.to_svg().evcxr_display()
    }
}

/// Lines over a shared x axis.
#[derive(Clone, Debug)]
pub struct LineChart {
    pub title: String,
    pub x_desc: String,
    pub y_desc: String,
    pub lines: Vec<(String, Vec<(f32, f32)>)>,
}

impl LineChart {
    pub fn new(
        title: impl Into<String>,
        x_desc: impl Into<String>,
        y_desc: impl Into<String>,
    ) -> Self {
        Self {
            title: title.into(),
            x_desc: x_desc.into(),
            y_desc: y_desc.into(),
            lines: Vec::new(),
        }
    }

    pub fn line(mut self, name: impl Into<String>, points: Vec<(f32, f32)>) -> Self {
        assert!(!points.is_empty(), "LineChart::line: a line needs at least one point");
        self.lines.push((name.into(), points));
        self
    }

    pub fn to_svg(&self) -> Svg {
        let pts = self.lines.iter().flat_map(|(_, p)| p.iter().copied());
        let (mut x0, mut x1, mut y0, mut y1) =
            (f32::INFINITY, f32::NEG_INFINITY, f32::INFINITY, f32::NEG_INFINITY);
        for (x, y) in pts {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        if !(x1 > x0) {
            x1 = x0 + 1.0;
        }
        let pad = if y1 > y0 { (y1 - y0) * 0.05 } else { 1.0 };
        render(640, 360, |root| {
            let mut chart = ChartBuilder::on(root)
                .caption(&self.title, ("sans-serif", 18))
                .margin(10)
                .x_label_area_size(36)
                .y_label_area_size(52)
                .build_cartesian_2d(x0..x1, (y0 - pad)..(y1 + pad))?;
            chart
                .configure_mesh()
                .x_desc(&self.x_desc)
                .y_desc(&self.y_desc)
                .label_style(("sans-serif", 12))
                .draw()?;
            for (i, (name, points)) in self.lines.iter().enumerate() {
                let color = Palette99::pick(i).to_rgba();
                chart
                    .draw_series(LineSeries::new(points.iter().copied(), color.stroke_width(2)))?
                    .label(name.as_str())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
                    });
            }
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .label_font(("sans-serif", 12))
                .draw()?;
            Ok(())
        })
    }

    pub fn evcxr_display(&self) {
        self.to_svg().evcxr_display()
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

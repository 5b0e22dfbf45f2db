//! Attention heatmaps: one coloured cell per (query, key) weight.

use super::{render, Svg};
use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;

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

//! Line charts over a shared x axis.

use super::{render, Svg};
use plotters::coord::ranged1d::ValueFormatter;
use plotters::prelude::*;

/// Lines over a shared x axis.
#[derive(Clone, Debug)]
pub struct LineChart {
    pub title: String,
    pub x_desc: String,
    pub y_desc: String,
    pub lines: Vec<(String, Vec<(f32, f32)>)>,
    /// both axes logarithmic, each point marked (for measurements against a size)
    pub log_log: bool,
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
            log_log: false,
        }
    }

    /// Logarithmic x and y axes, with a dot on every point: a power law becomes a straight line
    /// whose slope is its exponent.
    pub fn log_log(mut self) -> Self {
        self.log_log = true;
        self
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
        // an empty or single-x chart still needs a non-empty axis
        if x1.partial_cmp(&x0) != Some(std::cmp::Ordering::Greater) {
            x1 = x0 + 1.0;
        }
        render(640, 360, |root| {
            let builder = &mut ChartBuilder::on(root);
            builder
                .caption(&self.title, ("sans-serif", 18))
                .margin(10)
                .x_label_area_size(36)
                .y_label_area_size(52);
            if self.log_log {
                let (lo, hi) = (y0 / 1.5, y1 * 1.5);
                let chart =
                    builder.build_cartesian_2d((x0..x1).log_scale(), (lo..hi).log_scale())?;
                self.draw(chart)
            } else {
                let pad = if y1 > y0 { (y1 - y0) * 0.05 } else { 1.0 };
                self.draw(builder.build_cartesian_2d(x0..x1, (y0 - pad)..(y1 + pad))?)
            }
        })
    }

    fn draw<'a, DB, X, Y>(
        &self,
        mut chart: ChartContext<'a, DB, Cartesian2d<X, Y>>,
    ) -> Result<(), Box<dyn std::error::Error>>
    where
        DB: DrawingBackend + 'a,
        X: Ranged<ValueType = f32> + ValueFormatter<f32>,
        Y: Ranged<ValueType = f32> + ValueFormatter<f32>,
        DB::ErrorType: 'static,
    {
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(&self.x_desc).y_desc(&self.y_desc).label_style(("sans-serif", 12));
        let whole = |v: &f32| format!("{v}");
        if self.log_log {
            // plain numbers ("1000", "0.01"), and few enough of them that they do not collide
            mesh.x_labels(6).x_label_formatter(&whole).y_label_formatter(&whole);
        }
        mesh.draw()?;
        for (i, (name, points)) in self.lines.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(points.iter().copied(), color.stroke_width(2)))?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
                });
            if self.log_log {
                chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
            }
        }
        // measurements rise to the right, so the lower right corner is free for the legend
        let corner = if self.log_log {
            SeriesLabelPosition::LowerRight
        } else {
            SeriesLabelPosition::MiddleRight
        };
        chart
            .configure_series_labels()
            .position(corner)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .label_font(("sans-serif", 12))
            .draw()?;
        Ok(())
    }

    pub fn evcxr_display(&self) {
        self.to_svg().evcxr_display()
    }
}

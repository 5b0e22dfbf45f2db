//! Grouped bar charts.

use super::{render, Svg};
use plotters::prelude::*;

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

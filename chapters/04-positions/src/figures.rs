//! The chapter's figures: the sinusoidal table as a heatmap, a few of its dimensions as curves, and
//! the similarity of two positions against their offset.

use crate::{offset_similarity, sinusoidal_table};
use support::{Heatmap, LineChart};

/// The table for 50 positions and `d_model = 64`: position down, dimension across.
// ANCHOR: heatmap
pub fn table_heatmap() -> Heatmap {
    let (len, d) = (50, 64);
    Heatmap::new("sinusoidal encoding, d_model = 64", sinusoidal_table(len, d), len, d)
        .axes("dimension", "position")
        .decimals(None)
        .range(-1.0, 1.0)
        .tick_every(8)
}
// ANCHOR_END: heatmap

/// Dimensions 0, 2, 10 and 30 over 100 positions: the frequency falls with the dimension.
pub fn curves() -> LineChart {
    let (len, d) = (100, 64);
    let t = sinusoidal_table(len, d);
    [0usize, 2, 10, 30].iter().fold(
        LineChart::new("PE(pos, dim) for a few dimensions", "position", "value"),
        |chart, &dim| {
            chart.line(format!("dim {dim}"), (0..len).map(|p| (p as f32, t[p * d + dim])).collect())
        },
    )
}

/// `PE(p) . PE(p + k)` for `d_model = 64` and offsets `k` from 0 to 100: largest at 0, falling
/// with ripples.
pub fn offsets() -> LineChart {
    let points = (0..=100).map(|k| (k as f32, offset_similarity(64, k) as f32)).collect();
    LineChart::new("PE(p) . PE(p + k), d_model = 64", "offset k", "dot product")
        .line("any position p", points)
}

/// Every figure of the chapter with its file name.
pub fn all() -> Vec<(&'static str, support::Svg)> {
    vec![
        ("ch04-table.svg", table_heatmap().to_svg()),
        ("ch04-curves.svg", curves().to_svg()),
        ("ch04-offsets.svg", offsets().to_svg()),
    ]
}

//! The chapter's figures, drawn from the committed readings of the real model
//! (`measurements/heads.json`, `measurements/streaming.json`), so that they need no model file;
//! the tests that have the file check those readings against the model. `cargo xtask figures`
//! writes them into the book (`book/src/figures/`); the notebook draws the same maps from the
//! model itself.

use support::{Heatmap, LineChart, Svg};

use crate::heads::{self, HeadScores};
use crate::streaming::{self, Measured, STRETCH};

// ANCHOR: head_map
/// One score per head as a map: a row per layer, a column per head, both counted from 1.
pub fn head_map(title: &str, scores: &HeadScores) -> Heatmap {
    let layers = scores.values.len() / scores.heads;
    let rows: Vec<String> = (1..=layers).map(|l| l.to_string()).collect();
    let cols: Vec<String> = (1..=scores.heads).map(|h| h.to_string()).collect();
    Heatmap::new(title, scores.values.iter().map(|&v| v as f32).collect(), layers, scores.heads)
        .labels(&rows, &cols)
        .axes("head", "layer")
        .range(0.0, 1.0)
        .decimals(None)
}
// ANCHOR_END: head_map

/// The perplexity of each stretch of 128 tokens, per cache.
pub fn streaming_curves(measured: &[Measured]) -> LineChart {
    let mut chart = LineChart::new(
        "SmolLM2 reading 2,048 tokens through three caches",
        "tokens read",
        "perplexity of each 128 tokens",
    );
    for m in measured {
        let points = (m.stretches.iter().enumerate())
            .map(|(i, &p)| (((i + 1) * STRETCH) as f32, p as f32))
            .collect();
        chart = chart.line(&m.cache, points);
    }
    chart
}

/// Every figure of the chapter with its file name.
pub fn all() -> Vec<(&'static str, Svg)> {
    let roles = heads::committed();
    vec![
        ("ch11-sinks.svg", head_map("on position 0 (sinks)", &roles.sinks).to_svg()),
        ("ch11-previous.svg", head_map("one position back", &roles.previous).to_svg()),
        ("ch11-duplicate.svg", head_map("on the earlier copy", &roles.duplicate).to_svg()),
        ("ch11-induction.svg", head_map("after the earlier copy", &roles.induction).to_svg()),
        ("ch11-streaming.svg", streaming_curves(&streaming::committed()).to_svg()),
    ]
}

//! The chapter's figures, drawn from the committed weights and report (nothing is trained here):
//! the learning curve, accuracy by length, and cross-attention maps.
//! `cargo run -p ch09-capstone --example ch09-figures` writes them into the book.

use dfdx::prelude::*;
use support::{BarChart, Heatmap, LineChart, Svg};

use crate::attention::cross_attention;
use crate::presets::Reverser;
use crate::report::Report;
use crate::trained::{load_model, load_report};

/// The sequence whose attention the page shows.
pub const SHOWN: [u8; 8] = [3, 1, 4, 1, 5, 9, 2, 6];
/// The layer and head (counted from 0) whose map is the clearest anti-diagonal.
pub const SHOWN_HEAD: (usize, usize) = (1, 2);

/// Loss per token and exact-sequence accuracy (the validation set) every 100 steps.
pub fn learning_curve(report: &Report) -> LineChart {
    let h = &report.history;
    LineChart::new("training the reverser", "step", "loss per token / accuracy")
        .line("loss per target token", h.iter().map(|p| (p.step as f32, p.loss)).collect())
        .line(
            "exact sequences, validation set",
            h.iter().map(|p| (p.step as f32, p.exact_accuracy as f32)).collect(),
        )
}

/// Exact-sequence accuracy by input length: the test set for 1-10 digits (the lengths of
/// training), the longer set for 11-14 (never seen).
pub fn by_length(report: &Report) -> BarChart {
    let lengths: Vec<String> = report.by_length.iter().map(|s| s.length.to_string()).collect();
    let acc = report.by_length.iter().map(|s| s.right as f32 / s.sequences as f32).collect();
    BarChart::new("exact-sequence accuracy by length (trained on 1-10)", &lengths)
        .series("test", acc)
        .y_desc("share exactly reversed")
        .y_range(0.0, 1.0)
}

fn map(title: String, rows: &[Vec<f32>], input: &[u8], answer: &[u8]) -> Heatmap {
    let cols: Vec<String> = input.iter().map(|d| d.to_string()).collect();
    let labels: Vec<String> =
        answer.iter().map(|d| d.to_string()).chain(["EOS".to_string()]).collect();
    Heatmap::new(title, rows.concat(), rows.len(), input.len())
        .labels(&labels, &cols)
        .decimals(Some(2))
        .range(0.0, 1.0)
        .axes("input digit", "output token")
}

/// The cross-attention of [`SHOWN`]: each layer's mean over heads, and the [`SHOWN_HEAD`].
pub fn cross_maps<Dev: Device<f32>>(model: &Reverser<Dev>, dev: &Dev) -> Vec<Heatmap> {
    let read = cross_attention(model, dev, &SHOWN);
    let (l, h) = SHOWN_HEAD;
    let mut maps: Vec<Heatmap> = (0..read.maps.len())
        .map(|layer| {
            map(
                format!("layer {}, mean of the 4 heads", layer + 1),
                &read.head_mean(layer),
                &read.input,
                &read.answer,
            )
        })
        .collect();
    maps.push(map(
        format!("layer {}, head {}", l + 1, h + 1),
        &read.maps[l][h],
        &read.input,
        &read.answer,
    ));
    maps
}

/// Every figure of the chapter, by file name.
pub fn all<Dev: Device<f32>>(dev: &Dev) -> Vec<(&'static str, Svg)> {
    let report = load_report();
    let model = load_model(dev);
    let maps = cross_maps(&model, dev);
    vec![
        ("ch09-learning.svg", learning_curve(&report).to_svg()),
        ("ch09-by-length.svg", by_length(&report).to_svg()),
        ("ch09-cross-layer1.svg", maps[0].to_svg()),
        ("ch09-cross-layer2.svg", maps[1].to_svg()),
        ("ch09-cross-head.svg", maps[2].to_svg()),
    ]
}

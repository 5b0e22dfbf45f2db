//! The chapter's figures, drawn from the committed weights, text and measurements (nothing is
//! trained or timed here). `cargo run -p ch10-language-models --example ch10-figures` writes them
//! into the book.

use dfdx::prelude::*;
use support::{Heatmap, LineChart, Svg};

use crate::analysis::cost::CostReport;
use crate::analysis::reading::{by_offset, layer_weights};
use crate::char_model::chars::{decode, split};
use crate::char_model::trained::load_model;
use crate::llama::rope::{dot, Rope, RopeLayout};

/// Where the `cache_cost` example writes its measurement.
pub const COST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/measurements/cache_cost.json");

/// The committed measurement of generation with and without the cache.
pub fn load_cost() -> CostReport {
    support::saved::read_json(
        COST,
        "a cache cost measurement",
        "cargo run --release -p ch10-language-models --example cache_cost",
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Total generation time against tokens, both axes logarithmic: the slopes are the exponents.
pub fn cache_cost(report: &CostReport) -> LineChart {
    let points = |f: &dyn Fn(&crate::analysis::cost::CostRow) -> f64| {
        report.rows.iter().map(|r| (r.tokens as f32, f(r) as f32)).collect()
    };
    LineChart::new("generating n tokens", "tokens generated", "seconds in total")
        .log_log()
        .line("recomputing everything each step", points(&|r| r.recomputed_s))
        .line("with the KV cache", points(&|r| r.cached_s))
}

/// `<R(m) q, R(n) k>` for `q = k` = 64 ones, against the offset `m - n`: the score RoPE leaves
/// between two identical vectors falls, wavering, as they move apart.
pub fn rope_scores() -> LineChart {
    let rope = Rope::new(10_000.0, RopeLayout::HalfSplit);
    let ones = [1.0f32; 64];
    let points = (0..=256).map(|d| (d as f32, dot(&rope.rotate(&ones, d), &ones) as f32)).collect();
    LineChart::new(
        "RoPE: the score of a vector with itself, d positions apart",
        "offset d = m - n",
        "score",
    )
    .line("q = k = (1, ..., 1), 64 features", points)
}

/// The mean weight on the key `d` positions back, per layer, of the trained model.
pub fn attention_offsets<Dev: Device<f32>>(dev: &Dev) -> LineChart {
    let model = load_model(dev);
    let weights = layer_weights(&model, dev, &split().1, 16, 128);
    let mut chart = LineChart::new(
        "trained model: attention by distance (16 held-out windows)",
        "distance d back from the query",
        "mean weight",
    );
    for (layer, row) in by_offset(&weights, 128, 32).into_iter().enumerate() {
        let points = row.iter().enumerate().map(|(d, &w)| (d as f32, w as f32)).collect();
        chart = chart.line(format!("layer {}", layer + 1), points);
    }
    chart
}

/// The characters whose attention map the page shows: the start of the held-out text.
pub const SHOWN_CHARS: usize = 40;

/// One head's weights over the first [`SHOWN_CHARS`] held-out characters.
pub fn attention_map<Dev: Device<f32>>(dev: &Dev, layer: usize, head: usize) -> Heatmap {
    let model = load_model(dev);
    let ids = &split().1[..SHOWN_CHARS];
    let input = dev.tensor_from_vec(ids.to_vec(), (1, SHOWN_CHARS));
    let w = model.forward(input).weights[layer].as_vec();
    let n = SHOWN_CHARS;
    let map = w[head * n * n..(head + 1) * n * n].to_vec();
    let labels: Vec<String> =
        decode(ids).chars().map(|c| if c == ' ' { "␣".into() } else { c.to_string() }).collect();
    Heatmap::new(format!("layer {}, head {}", layer + 1, head + 1), map, n, n)
        .labels(&labels, &labels)
        .decimals(None)
        .axes("key", "query")
}

/// Every figure, by file name.
pub fn all<Dev: Device<f32>>(dev: &Dev) -> Vec<(&'static str, Svg)> {
    vec![
        ("ch10_cache_cost.svg", cache_cost(&load_cost()).to_svg()),
        ("ch10_rope_scores.svg", rope_scores().to_svg()),
        ("ch10_attention_offsets.svg", attention_offsets(dev).to_svg()),
        ("ch10_attention_map_l1h1.svg", attention_map(dev, 0, 0).to_svg()),
        ("ch10_attention_map_l2h1.svg", attention_map(dev, 1, 0).to_svg()),
    ]
}

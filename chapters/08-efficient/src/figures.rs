//! The chapter's figures: the patterns, the quadratic cost, and the measured times and memory
//! (drawn from the committed `measurements/results.json`). `cargo run -p ch08-efficient --example
//! ch08-figures` writes them into the book.

use ch01_attention::scaled_dot_product_attention;
use dfdx::prelude::*;
use support::{Heatmap, LineChart, Svg};

use crate::cost::{bytes_per_head, Precision};
use crate::heads::Heads;
use crate::measure::Method;
use crate::measure::{measured, Measured};
use crate::pattern::{allowed_mask, BigBird, Pattern, SlidingWindow};

fn mask_values(pattern: &dyn Pattern, n: usize) -> Vec<f32> {
    allowed_mask(pattern, n, n).into_iter().map(|a| if a { 1.0 } else { 0.0 }).collect()
}

/// The weights of random queries and keys (10 tokens, d_k 16) under the window of 2: a band.
pub fn window_weights<Dev: Device<f32>>(dev: &Dev) -> Heatmap {
    let window = SlidingWindow { w: 2, causal: false };
    let [q, k] =
        [1, 2].map(|seed| Heads::random(seed, 1, 10, 16).to_tensor(dev, (1, 1, 10, Const::<16>)));
    let allowed = dev.tensor_from_vec(mask_values(&window, 10), (10, 10)).gt(0.5);
    let mask = ch01_attention::broadcast_mask(allowed, 1, 1);
    let (_, w) = scaled_dot_product_attention(q, k.clone(), k, Some(&mask));
    let labels: Vec<String> = (0..10).map(|i| i.to_string()).collect();
    Heatmap::new("sliding window, w = 2: weights of random queries and keys", w.as_vec(), 10, 10)
        .labels(&labels, &labels)
        .decimals(Some(2))
        .axes("key", "query")
}

/// BigBird's pattern on 256 tokens, block by block: blocks of 16, one neighbour block each side,
/// one global block, two random blocks per query block (1 = the 16 x 16 scores are computed).
pub fn bigbird_pattern() -> Heatmap {
    let bb = BigBird::new(256, 16, 1, 1, 2, 0);
    let blocks = bb.visible.len();
    let values = (0..blocks)
        .flat_map(|a| (0..blocks).map(move |b| (a, b)))
        .map(|(a, b)| if bb.visible[a].contains(&b) { 1.0 } else { 0.0 })
        .collect();
    let kept: usize = bb.visible.iter().map(Vec::len).sum();
    let labels: Vec<String> = (0..blocks).map(|b| b.to_string()).collect();
    Heatmap::new(
        format!("BigBird, 256 tokens in blocks of 16: {kept} of {} block pairs", blocks * blocks),
        values,
        blocks,
        blocks,
    )
    .labels(&labels, &labels)
    .decimals(None)
    .axes("key block", "query block")
}

/// Memory of one head's scores against the sequence length, f32 and f16.
pub fn cost_chart() -> LineChart {
    let lengths = [512u64, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072];
    let mib = |p| {
        lengths
            .iter()
            .map(|&n| (n as f32, bytes_per_head(n, p) as f32 / (1 << 20) as f32))
            .collect()
    };
    LineChart::new("the scores of one head", "sequence length n", "MiB")
        .line("f32", mib(Precision::F32))
        .line("f16", mib(Precision::F16))
        .log_log()
}

/// A log-log chart with one line per method that has points.
fn per_method(title: &str, y_desc: &str, points: impl Fn(Method) -> Vec<(f32, f32)>) -> LineChart {
    let chart = LineChart::new(title, "sequence length n", y_desc).log_log();
    Method::ALL.into_iter().fold(chart, |chart, m| match points(m) {
        p if p.is_empty() => chart,
        p => chart.line(m.name(), p),
    })
}

/// Measured time of every method against `n`, log-log.
pub fn time_chart(results: &Measured) -> LineChart {
    per_method("time of one call, 8 heads, d_k 64", "seconds", |m| {
        let times = results.times.iter().filter(|t| t.method == m.id());
        times.map(|t| (t.n as f32, t.seconds as f32)).collect()
    })
}

/// Measured memory (peak RSS beyond the start) against `n`, log-log.
pub fn memory_chart(results: &Measured) -> LineChart {
    per_method("memory used by one call (peak RSS)", "MiB", |m| {
        let mib = |b: u64| b as f32 / (1 << 20) as f32;
        let points = results.memory.iter().filter(|x| x.method == m.id());
        points.map(|x| (x.n as f32, mib(x.used()))).collect()
    })
}

/// Every figure of the chapter, by file name.
pub fn all<Dev: Device<f32>>(dev: &Dev) -> Vec<(&'static str, Svg)> {
    let results = measured();
    vec![
        ("ch08-window.svg", window_weights(dev).to_svg()),
        ("ch08-bigbird.svg", bigbird_pattern().to_svg()),
        ("ch08-cost.svg", cost_chart().to_svg()),
        ("ch08-time.svg", time_chart(&results).to_svg()),
        ("ch08-memory.svg", memory_chart(&results).to_svg()),
    ]
}

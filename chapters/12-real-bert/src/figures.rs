//! The chapter's figures, drawn from the committed reading of the real model
//! (`measurements/looks.json`), so that they need no model file; a test that has the file checks
//! the reading against the model. `cargo xtask figures` writes them into the book
//! (`book/src/figures/`); the notebook draws the same maps from the model itself.

use ch11_real_llm::figures::head_map;
use support::{Heatmap, LineChart, Svg};

use crate::looks::{self, HeadMap, Looks};

/// The share of attention on `[CLS]`, `[SEP]` and punctuation, and `[CLS]`'s share of what the
/// heads add, layer by layer (mean over heads).
pub fn per_layer(looks: &Looks) -> LineChart {
    let mut chart = LineChart::new("Where the attention goes", "layer", "mean share");
    for (name, scores) in [
        ("weight on [CLS]", &looks.cls),
        ("weight on [SEP]", &looks.sep),
        ("weight on . and ,", &looks.punctuation),
        ("[CLS]'s share of what is added", &looks.cls_by_length),
    ] {
        let points = (Looks::per_layer(scores).iter().enumerate())
            .map(|(l, &v)| ((l + 1) as f32, v as f32))
            .collect();
        chart = chart.line(name, points);
    }
    chart
}

// ANCHOR: token_map
/// One head's weights on one sentence, a row per query and a column per key.
pub fn token_map(map: &HeadMap) -> Heatmap {
    let n = map.tokens.len();
    let title = format!("L{}H{}: {}", map.layer, map.head, map.role);
    Heatmap::new(title, map.weights.clone(), n, n)
        .labels(&map.tokens, &map.tokens)
        .axes("key", "query")
        .range(0.0, 1.0)
        .decimals(None)
}
// ANCHOR_END: token_map

/// Every figure of the chapter with its file name.
pub fn all() -> Vec<(&'static str, Svg)> {
    let looks = looks::committed();
    let names = ["ch12-map-cls.svg", "ch12-map-previous.svg", "ch12-map-next.svg"];
    let mut out = vec![
        ("ch12-layers.svg", per_layer(&looks).to_svg()),
        ("ch12-cls.svg", head_map("on [CLS]", &looks.cls).to_svg()),
        ("ch12-previous.svg", head_map("one token back", &looks.previous).to_svg()),
        ("ch12-next.svg", head_map("one token ahead", &looks.next).to_svg()),
    ];
    out.extend(names.into_iter().zip(looks.maps.iter().map(|m| token_map(m).to_svg())));
    out
}

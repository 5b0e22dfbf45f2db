//! The chapter's figures, built from the same functions the text runs. `cargo xtask figures`
//! writes them into the book (`book/src/figures/`); the notebook shows them inline.

use support::{BarChart, LineChart, Svg};

use crate::cache_cost::PUBLISHED;
use crate::mla::decode_speed;
use crate::mla::speed::Timed;
use crate::variants::{self, Variant};

/// KiB of cache per token: every layer keeping every token, and after 32,768 tokens.
pub fn kv_cache() -> BarChart {
    let names: Vec<&str> = PUBLISHED.iter().map(|m| m.name).collect();
    let kib = |b: usize| b as f32 / 1024.0;
    BarChart::new("KV cache per token of five published models (bfloat16)", &names)
        .series(
            "every layer keeps every token",
            PUBLISHED.iter().map(|m| kib(m.bytes_per_token_unwindowed())).collect(),
        )
        .series(
            "after 32,768 tokens",
            PUBLISHED.iter().map(|m| kib(m.cache_bytes(32_768) / 32_768)).collect(),
        )
        .y_desc("KiB per token")
}

/// One decoding step of one layer with DeepSeek-V2-Lite's attention sizes (its queries compressed
/// to DeepSeek-V3's 1,536), every form, from the committed run.
pub fn mla_decode() -> LineChart {
    let run = decode_speed::committed();
    let mut chart = LineChart::new(
        "One decoding step of one MLA layer (DeepSeek-V2-Lite's attention sizes)",
        "tokens in the cache",
        "milliseconds (median)",
    )
    .log_log();
    for form in Timed::ALL {
        let line =
            run.rows.iter().map(|t| (t.tokens as f32, decode_speed::ms(t, form).median as f32));
        chart = chart.line(form.name(), line.collect());
    }
    chart
}

const VARIANTS: [Variant; 3] = [Variant::Plain, Variant::QkNorm, Variant::Gate];

/// The largest attention score on held-out text as each variant trains, from the committed runs.
pub fn variant_scores() -> LineChart {
    let runs = variants::report::committed();
    let mut chart = LineChart::new(
        "Largest attention score while training chapter 10's model (seed 0)",
        "training step",
        "largest q·k/sqrt(d)",
    );
    for v in VARIANTS {
        chart = chart.line(variants::report::name(v), runs.run(v).series(|x| x.max_score));
    }
    chart
}

/// The first layer's mean weight on position 0 as each variant trains, beside an even spread.
pub fn variant_first_weight() -> LineChart {
    let runs = variants::report::committed();
    let mut chart = LineChart::new(
        "Weight on position 0 in layer 1 while training chapter 10's model (seed 0)",
        "training step",
        "mean weight on position 0",
    );
    for v in VARIANTS {
        chart = chart.line(variants::report::name(v), runs.run(v).series(|x| x.first_weight[0]));
    }
    let even = variants::train::even_spread(runs.config.context, variants::train::SKIP_QUERIES);
    let steps = [0.0, runs.config.steps as f32];
    chart.line("an even spread", steps.iter().map(|&s| (s, even)).collect())
}

/// Every figure of the chapter with its file name.
pub fn all() -> Vec<(&'static str, Svg)> {
    vec![
        ("ch14-kv-cache.svg", kv_cache().to_svg()),
        ("ch14-mla-decode.svg", mla_decode().to_svg()),
        ("ch14-variant-scores.svg", variant_scores().to_svg()),
        ("ch14-variant-first.svg", variant_first_weight().to_svg()),
    ]
}

//! One decoding step of one local layer at Gemma 3 27B's attention sizes after 32,768 tokens: the
//! window's 1,024 keys held in a rolling buffer, against every key held and the window applied by
//! the mask. The same output, from 32 times less cache.
//!
//! Gemma 3 27B (Gemma Team 2025): 32 query heads over 16 key/value heads of 128, a window of 1,024
//! on its local layers. Chapter 10's attention takes a width of `heads · head_dim` = 4,096 (Gemma 3
//! 27B's is 5,376: chapter 10's `q_proj` and `o_proj` are `HIDDEN × HIDDEN`, so its attention, and
//! this chapter's layers built on it, cannot hold a model whose heads together are not as wide as
//! its stream); the width sets only the projections, which both sides share.

use std::time::Instant;

use ch10_language_models::{GroupedQueryAttention, LayerCache, Rope, RopeLayout};
use dfdx::prelude::*;
use serde::{Deserialize, Serialize};
use support::rounds::Summary;

pub const HIDDEN: usize = 4096;
pub const HEADS: usize = 32;
pub const KV_HEADS: usize = 16;
pub const HEAD_DIM: usize = 128;
pub const KV_WIDTH: usize = KV_HEADS * HEAD_DIM;
pub const WINDOW: usize = 1024;
pub const TOKENS: usize = 32_768;

/// A local layer at those sizes, `nn.Linear`'s initialisation.
pub type LocalLayer<Dev> =
    GroupedQueryAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, f32, Dev>;

type Held<Dev> = Tensor<(usize, Const<KV_HEADS>, usize, Const<HEAD_DIM>), f32, Dev>;

/// A run: the rounds of both steps, in milliseconds, the caches' bytes and the outputs' largest
/// difference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CacheRun {
    pub machine: String,
    pub tokens: usize,
    pub window: usize,
    pub full_ms: Vec<f64>,
    pub rolling_ms: Vec<f64>,
    pub full_bytes: usize,
    pub rolling_bytes: usize,
    pub difference: f32,
}

/// Where the committed run is kept.
pub const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/measurements/rolling_cache.json");

/// The committed run.
///
/// # Panics
/// If the file is missing or not a run (`rolling_cache_speed -- --json` writes one).
pub fn committed() -> CacheRun {
    let text = std::fs::read_to_string(COMMITTED).unwrap_or_else(|e| panic!("{COMMITTED}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{COMMITTED}: {e}"))
}

impl CacheRun {
    /// Every key held over the rolling buffer, round by round: median and range.
    pub fn ratio(&self) -> Summary {
        let ratios: Vec<f64> =
            self.full_ms.iter().zip(&self.rolling_ms).map(|(f, r)| f / r).collect();
        Summary::of(&ratios).expect("positive times")
    }

    /// The table the page shows.
    pub fn table(&self) -> String {
        let median = |ms: &[f64]| Summary::of(ms).expect("positive times").median;
        let r = self.ratio();
        let mut out = format!(
            "{}
",
            self.machine
        );
        out += &format!(
            "one local layer (32 query heads over 16 key/value heads of 128, window {}), the token at {}
",
            self.window,
            self.tokens - 1
        );
        out += "cache                       keys held       bytes  step ms (median of rounds)
";
        let held = |bytes: usize| bytes / (2 * KV_WIDTH * 4);
        out += &format!(
            "every key, window by mask  {:>9}  {:>10}  {:>8.1}
",
            held(self.full_bytes),
            self.full_bytes,
            median(&self.full_ms)
        );
        out += &format!(
            "rolling buffer             {:>9}  {:>10}  {:>8.1}
",
            held(self.rolling_bytes),
            self.rolling_bytes,
            median(&self.rolling_ms)
        );
        out += &format!(
            "every key / rolling: {:.1}x the bytes, {:.1}x the time ({:.1}x to {:.1}x, {} rounds); |difference| {:.1e}\n",
            self.full_bytes as f64 / self.rolling_bytes as f64,
            r.median,
            r.slowest,
            r.best,
            r.rounds,
            self.difference
        );
        out
    }
}

/// `rounds` alternating rounds of the step with every key held and with a rolling buffer of
/// `window` keys, the new token at position `tokens - 1`.
pub fn time_steps<Dev: Device<f32>>(
    dev: &Dev,
    tokens: usize,
    window: usize,
    rounds: usize,
) -> CacheRun {
    let layer = LocalLayer::new(dev);
    let rope = Rope::new(10_000.0, RopeLayout::HalfSplit);
    let (k, v): (Held<Dev>, Held<Dev>) = (
        dev.sample_normal_like(&(1, Const, tokens - 1, Const)),
        dev.sample_normal_like(&(1, Const, tokens - 1, Const)),
    );
    // chapter 10's caches, filled with the same earlier tokens
    let (mut full, mut rolling) = (LayerCache::new(), LayerCache::rolling(window));
    full.append(k.clone(), v.clone());
    rolling.append(k, v);
    let x = dev.sample_normal_like(&(1, 1, Const::<HIDDEN>));
    let step = |cache: &LayerCache<KV_HEADS, HEAD_DIM, Dev>| {
        let start = cache.next_position();
        let (q, k, v) = layer.project(x.clone(), &rope, start);
        let (k, v, keys) = cache.clone().append(k, v);
        layer.attend(q, k, v, start..start + 1, keys, Some(window)).0.as_vec()
    };
    let difference = support::max_abs_diff(&step(&full), &step(&rolling)); // also a warm-up
    let mut run = CacheRun {
        machine: support::machine::describe(),
        tokens,
        window,
        full_ms: vec![],
        rolling_ms: vec![],
        full_bytes: full.bytes(),
        rolling_bytes: rolling.bytes(),
        difference,
    };
    for _ in 0..rounds {
        for (cache, times) in [(&full, &mut run.full_ms), (&rolling, &mut run.rolling_ms)] {
            let start = Instant::now();
            step(cache);
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    run
}

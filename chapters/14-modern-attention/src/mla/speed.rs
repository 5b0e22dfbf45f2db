//! One decoding step of one layer with DeepSeek-V2-Lite's attention sizes, in both forms: how long the
//! attention over a cache of `n` tokens takes when every head's keys and values are expanded
//! from the latents (what Hugging Face's `DeepseekV3Attention` does at every step) and when the
//! absorbed matrices attend over the latents directly.
//!
//! DeepSeek-V2-Lite (DeepSeek-AI 2024): `hidden_size` 2048, 16 heads, `kv_lora_rank` 512,
//! `qk_rope_head_dim` 64, `qk_nope_head_dim` 128, `v_head_dim` 128, and no query compression
//! (`q_lora_rank` null). The layer here compresses its queries to 1536 (DeepSeek-V3's
//! `q_lora_rank`), since this chapter's layer always does; the query's path is the same in both
//! forms and does not grow with the context.

use std::time::Instant;

use ch10_language_models::{RmsNorm, Rope, RopeLayout};
use dfdx::prelude::*;

use super::absorbed::Absorbed;
use super::attention::{LatentAttention, Latents, Rows};

pub const HIDDEN: usize = 2048;
pub const HEADS: usize = 16;
pub const Q_RANK: usize = 1536;
pub const KV_RANK: usize = 512;
pub const NOPE: usize = 128;
pub const ROPE: usize = 64;
pub const V: usize = 128;

/// One attention layer with DeepSeek-V2-Lite's attention sizes and DeepSeek-V3's query
/// compression (`Q_RANK` 1,536).
pub type LiteLayer<Dev> = LatentAttention<HIDDEN, HEADS, Q_RANK, KV_RANK, NOPE, ROPE, V, Dev>;

/// A layer with random weights (normal, `1 / sqrt(inputs)`), seeded by the device.
pub fn lite_layer<Dev: Device<f32>>(dev: &Dev) -> LiteLayer<Dev> {
    fn scaled<S: Shape, Dev: Device<f32>>(
        dev: &Dev,
        shape: S,
        inputs: usize,
    ) -> Tensor<S, f32, Dev> {
        dev.sample_normal_like(&shape) * (1.0 / (inputs as f32).sqrt())
    }
    LatentAttention {
        q_down: scaled(dev, (Const, Const), HIDDEN),
        q_norm: RmsNorm::new(dev),
        q_up: scaled(dev, (Const, Const, Const), Q_RANK),
        q_rope: scaled(dev, (Const, Const, Const), Q_RANK),
        kv_down: scaled(dev, (Const, Const), HIDDEN),
        kv_norm: RmsNorm::new(dev),
        k_rope: scaled(dev, (Const, Const), HIDDEN),
        k_up: scaled(dev, (Const, Const, Const), KV_RANK),
        v_up: scaled(dev, (Const, Const, Const), KV_RANK),
        o: scaled(dev, (Const, Const, Const), HEADS * V),
        rope: Rope::new(10_000.0, RopeLayout::Interleaved),
    }
}

/// A cache of `n` tokens' latents (RMS-normalised scale) and turned keys.
pub fn lite_cache<Dev: Device<f32>>(dev: &Dev, n: usize) -> Latents<KV_RANK, ROPE, Dev> {
    Latents {
        latent: dev.sample_normal_like(&(1, n, Const)),
        k_rot: dev.sample_normal_like(&(1, n, Const)),
    }
}

/// Milliseconds of each round of one step over a cache of `tokens`, both forms, alternating.
#[derive(Clone, Debug)]
pub struct StepTimes {
    pub tokens: usize,
    pub expanded_ms: Vec<f64>,
    pub absorbed_ms: Vec<f64>,
    /// The largest difference between the two forms' outputs.
    pub difference: f32,
}

/// Times `rounds` steps of each form for the last token of a `tokens`-long cache.
pub fn time_steps<Dev: Device<f32>>(
    layer: &LiteLayer<Dev>,
    folded: &Absorbed<HIDDEN, HEADS, Q_RANK, KV_RANK, Dev>,
    tokens: usize,
    rounds: usize,
) -> StepTimes {
    let dev = layer.q_down.device().clone();
    let held = lite_cache(&dev, tokens);
    let x: Rows<HIDDEN, Dev> = dev.sample_normal_like(&(1, 1, Const));
    let (queries, keys) = (tokens - 1..tokens, 0..tokens);
    let expanded = || {
        let q = layer.queries(&x, tokens - 1);
        layer.attend_expanded(q, &held, queries.clone(), keys.clone()).0.as_vec()
    };
    let absorbed =
        || layer.attend_absorbed(folded, &x, &held, queries.clone(), keys.clone()).as_vec();
    let difference = support::max_abs_diff(&expanded(), &absorbed()); // also a warm-up
    let mut times = StepTimes { tokens, expanded_ms: vec![], absorbed_ms: vec![], difference };
    for _ in 0..rounds {
        let start = Instant::now();
        expanded();
        times.expanded_ms.push(start.elapsed().as_secs_f64() * 1e3);
        let start = Instant::now();
        absorbed();
        times.absorbed_ms.push(start.elapsed().as_secs_f64() * 1e3);
    }
    times
}

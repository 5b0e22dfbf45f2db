//! One decoding step of one layer with DeepSeek-V2-Lite's attention sizes, in four forms: how long
//! the attention over a cache of `n` tokens takes when every head's keys and values are expanded
//! from the latents at every step (what Hugging Face's `DeepseekV3Attention` does in
//! `transformers` 5), when they were expanded once and cached (DeepSeek's `attn_impl = "naive"`),
//! and when the absorbed matrices attend over the latents directly, multiplied out at load time
//! or applied in turn (DeepSeek's `attn_impl = "absorb"`).
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
use super::attention::{LatentAttention, Latents};
use super::products::Rows;

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

/// The four ways a step is timed, in the order each round runs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timed {
    /// Every head's keys and values expanded from all the held latents ([`Form::Expanded`]).
    ///
    /// [`Form::Expanded`]: super::Form::Expanded
    Reexpanded,
    /// Keys and values expanded once and cached: the step expands its own token's only.
    KeysValues,
    /// Absorbed, the folded matrices multiplied out when the layer is loaded.
    Folded,
    /// Absorbed, the factors applied to the token in turn.
    InTurn,
}

impl Timed {
    pub const ALL: [Timed; 4] =
        [Timed::Reexpanded, Timed::KeysValues, Timed::Folded, Timed::InTurn];

    /// Its key in `measurements/mla_decode.json` and its column on the page.
    pub fn name(self) -> &'static str {
        match self {
            Timed::Reexpanded => "re-expanded",
            Timed::KeysValues => "keys and values cached",
            Timed::Folded => "absorbed, folded",
            Timed::InTurn => "absorbed, in turn",
        }
    }

    /// Its short name, a column of the page's table.
    pub fn column(self) -> &'static str {
        match self {
            Timed::Reexpanded => "re-expanded",
            Timed::KeysValues => "keys, values cached",
            Timed::Folded => "absorbed, folded",
            Timed::InTurn => "absorbed, in turn",
        }
    }
}

/// Milliseconds of each round of one step over a cache of `tokens`, per form ([`Timed::ALL`]'s
/// order).
#[derive(Clone, Debug)]
pub struct StepTimes {
    pub tokens: usize,
    pub ms: [Vec<f64>; 4],
    /// The largest difference of any form's output from the re-expanded form's.
    pub difference: f32,
}

impl StepTimes {
    /// One form's rounds.
    pub fn of(&self, form: Timed) -> &[f64] {
        &self.ms[form as usize]
    }
}

/// Times `rounds` steps of each form for the last token of a `tokens`-long cache, the forms
/// alternating within each round. The keys-and-values form expands its own token's latent (its
/// write into the cache is not timed) and attends over the held latents' expansion.
pub fn time_steps<Dev: Device<f32>>(
    layer: &LiteLayer<Dev>,
    folded: &Absorbed<HIDDEN, HEADS, Q_RANK, KV_RANK, Dev>,
    tokens: usize,
    rounds: usize,
) -> StepTimes {
    let dev = layer.q_down.device().clone();
    let held = lite_cache(&dev, tokens);
    let expanded = layer.expand(&held);
    let newest = lite_cache(&dev, 1);
    let x: Rows<HIDDEN, Dev> = dev.sample_normal_like(&(1, 1, Const));
    let (queries, keys) = (tokens - 1..tokens, 0..tokens);
    let (q, k) = (&queries, &keys);
    let step = |form: Timed| -> Vec<f32> {
        let out = match form {
            Timed::Reexpanded => {
                let query = layer.queries(&x, tokens - 1);
                layer.attend_expanded(query, &held, q.clone(), k.clone()).0
            }
            Timed::KeysValues => {
                let query = layer.queries(&x, tokens - 1);
                let _own = layer.expand(&newest);
                layer.attend_keys_values(query, &expanded, q.clone(), k.clone()).0
            }
            Timed::Folded => layer.attend_absorbed(folded, &x, &held, q.clone(), k.clone()),
            Timed::InTurn => layer.attend_absorbed_in_turn(&x, &held, q.clone(), k.clone()),
        };
        out.as_vec()
    };
    // a warm-up, and the check that every form gives the same output
    let plain = step(Timed::Reexpanded);
    let difference = (Timed::ALL[1..].iter())
        .map(|&f| support::max_abs_diff(&plain, &step(f)))
        .fold(0.0, f32::max);
    let mut ms: [Vec<f64>; 4] = Default::default();
    for _ in 0..rounds {
        for form in Timed::ALL {
            let start = Instant::now();
            step(form);
            ms[form as usize].push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    StepTimes { tokens, ms, difference }
}

/// Multiply-adds of one step of `form`: what it does once (the token's own products, each weight
/// read once) and what it does per cached token.
pub fn multiply_adds(form: Timed) -> (usize, usize) {
    let query = HIDDEN * Q_RANK + Q_RANK * HEADS * ROPE; // W^DQ, and W^QR for the turned query
    let own_query = Q_RANK * HEADS * NOPE; // W^UQ
    let out = HEADS * V * HIDDEN; // W^O
    let expansion = KV_RANK * HEADS * (NOPE + V); // W^UK and W^UV on one latent
    let attention = HEADS * (NOPE + ROPE) + HEADS * V; // scores and mixing over heads' keys
    let over_latents = HEADS * (KV_RANK + ROPE) + HEADS * KV_RANK;
    match form {
        Timed::Reexpanded => (query + own_query + out, expansion + attention),
        Timed::KeysValues => (query + own_query + out + expansion, attention),
        Timed::Folded => {
            (query + HEADS * Q_RANK * KV_RANK + HEADS * KV_RANK * HIDDEN, over_latents)
        }
        Timed::InTurn => (query + own_query + expansion + out, over_latents),
    }
}

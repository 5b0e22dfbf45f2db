//! Heads by what they do, read off the attention weights with two simple statistics:
//!
//! * a **previous-token head** puts its weight on the key one position back: its score is the
//!   mean weight there, over real text;
//! * a head that **looks back at an earlier copy** of the current token is read on a text made
//!   of random tokens written twice: a query in the second half has its own token at one earlier
//!   position. The weight on that position is the *duplicate* score; the weight on the position
//!   after it (what came next last time) is the *induction* score (Olsson et al. 2022), the
//!   pattern that lets a model continue a sequence it has seen before.
//!
//! Beside them, chapter 10's reading of attention sinks (Xiao et al. 2023): the mean weight on
//! the first position.
//!
//! The weights come as chapter 10's model returns them: per layer, `(windows, heads, context,
//! context)` flattened.

use std::path::{Path, PathBuf};

use ch10_language_models::analysis::reading::{sinks, SKIP_QUERIES};
use ch10_language_models::char_model::chars::TEXT;
use dfdx::prelude::*;
use rand::rngs::StdRng;
use rand::seq::index::sample;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

use crate::smollm2::SmolLm2;
use crate::tokenizer::Tokenizer;

/// One score per head, layer after layer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadScores {
    pub heads: usize,
    /// `layers × heads` scores, layer-major
    pub values: Vec<f64>,
}

impl HeadScores {
    /// The score of `head` in `layer`, both counted from 0.
    pub fn get(&self, layer: usize, head: usize) -> f64 {
        self.values[layer * self.heads + head]
    }

    /// `(layer, head, score)` of the `n` highest, highest first (counted from 0).
    pub fn top(&self, n: usize) -> Vec<(usize, usize, f64)> {
        let mut all: Vec<(usize, usize, f64)> = (self.values.iter().enumerate())
            .map(|(i, &s)| (i / self.heads, i % self.heads, s))
            .collect();
        all.sort_by(|a, b| b.2.total_cmp(&a.2));
        all.truncate(n);
        all
    }

    /// How many heads score above `threshold`.
    pub fn above(&self, threshold: f64) -> usize {
        self.values.iter().filter(|&&s| s > threshold).count()
    }
}

/// The mean weight `w[query][key]` over `pairs`, per head, for every layer's weights.
fn mean_over(
    weights: &[Vec<f32>],
    heads: usize,
    context: usize,
    pairs: &[(usize, usize)],
) -> HeadScores {
    let mut values = Vec::with_capacity(weights.len() * heads);
    for layer in weights {
        let windows = layer.len() / (heads * context * context);
        for head in 0..heads {
            let total: f64 = (0..windows)
                .map(|w| {
                    let map = &layer[(w * heads + head) * context * context..][..context * context];
                    pairs.iter().map(|&(q, k)| f64::from(map[q * context + k])).sum::<f64>()
                })
                .sum();
            values.push(total / (windows * pairs.len()) as f64);
        }
    }
    HeadScores { heads, values }
}

// ANCHOR: previous_token
/// Each head's mean weight on the key one position back, over the queries from
/// [`SKIP_QUERIES`] on.
pub fn previous_token(weights: &[Vec<f32>], heads: usize, context: usize) -> HeadScores {
    let pairs: Vec<(usize, usize)> = (SKIP_QUERIES..context).map(|q| (q, q - 1)).collect();
    mean_over(weights, heads, context, &pairs)
}
// ANCHOR_END: previous_token

/// `half` distinct token ids drawn from `range` without replacement, seeded, written twice: in
/// the second half, each token appeared exactly once before.
///
/// # Panics
/// If `range` holds fewer than `half` ids.
pub fn repeated_tokens(seed: u64, half: usize, range: std::ops::Range<usize>) -> Vec<usize> {
    assert!(
        half <= range.len(),
        "repeated_tokens: {half} distinct ids cannot be drawn from {range:?}; widen the range"
    );
    let mut rng = StdRng::seed_from_u64(seed);
    let first: Vec<usize> =
        sample(&mut rng, range.len(), half).into_iter().map(|i| range.start + i).collect();
    [first.clone(), first].concat()
}

// ANCHOR: copies
/// On [`repeated_tokens`] of `half` (context `2 · half`): each head's mean weight on the earlier
/// copy of the query's token (duplicate) and on the token after it (induction), over the queries
/// of the second half from its second token on.
pub fn copies(weights: &[Vec<f32>], heads: usize, half: usize) -> (HeadScores, HeadScores) {
    let queries = 1..half;
    let duplicate: Vec<(usize, usize)> = queries.clone().map(|k| (half + k, k)).collect();
    let induction: Vec<(usize, usize)> = queries.map(|k| (half + k, k + 1)).collect();
    (
        mean_over(weights, heads, 2 * half, &duplicate),
        mean_over(weights, heads, 2 * half, &induction),
    )
}
// ANCHOR_END: copies

/// What the chapter reads off SmolLM2's heads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Roles {
    /// mean weight on position 0, on 4 windows of 128 tokens of chapter 10's text
    pub sinks: HeadScores,
    /// what a head spreading its weight evenly would put on position 0 there
    pub even_spread: f64,
    /// mean weight one position back, on the same windows
    pub previous: HeadScores,
    /// on 100 distinct random tokens (ids 1,000 to 39,999) written twice, seeds 0 to 3
    pub duplicate: HeadScores,
    pub induction: HeadScores,
}

/// Runs `model` on the two texts and scores every head.
pub fn roles<Dev: Device<f32>>(model: &SmolLm2<Dev>, tok: &Tokenizer) -> Roles {
    let dev = model.norm.weight.device().clone();
    let heads = crate::smollm2::CONFIG.num_attention_heads;
    let weights_of = |ids: Vec<usize>, windows: usize| -> Vec<Vec<f32>> {
        let context = ids.len() / windows;
        let input = dev.tensor_from_vec(ids, (windows, context));
        model.forward(input).weights.into_iter().map(|w| w.as_vec()).collect()
    };
    let text: Vec<usize> = tok.encode(TEXT).into_iter().take(4 * 128).map(|i| i as usize).collect();
    let on_text = weights_of(text, 4);
    let first = sinks(&on_text, heads, 128);
    let even_spread = first[0].uniform;
    let sinks = HeadScores { heads, values: first.iter().map(|s| s.first).collect() };
    let previous = previous_token(&on_text, heads, 128);
    let repeated: Vec<usize> =
        (0..4).flat_map(|seed| repeated_tokens(seed, 100, 1000..40_000)).collect();
    let (duplicate, induction) = copies(&weights_of(repeated, 4), heads, 100);
    Roles { sinks, even_spread, previous, duplicate, induction }
}

/// Where the committed reading is kept: `measurements/heads.json`, written by
/// `--example head_roles -- --save`, from which the page's figures are drawn.
pub fn committed_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("measurements").join("heads.json")
}

/// The committed reading.
///
/// # Panics
/// If the file is missing or malformed.
pub fn committed() -> Roles {
    let text = std::fs::read_to_string(committed_path()).expect("measurements/heads.json");
    serde_json::from_str(&text).expect("measurements/heads.json holds a Roles")
}

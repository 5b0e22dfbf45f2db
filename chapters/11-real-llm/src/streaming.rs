//! StreamingLLM (Xiao et al. 2023) on SmolLM2: a long text read through caches that keep
//! everything, only the latest tokens, or the latest tokens and the first four, the attention
//! sinks. Each next token is scored by the model as it reads, so the perplexity shows what each
//! cache costs.

use std::path::{Path, PathBuf};

use ch10_language_models::char_model::chars::TEXT;
use serde::{Deserialize, Serialize};

use crate::decode::{Decoder, Keep, Policy};
use crate::perplexity::negative_log_likelihood;
use crate::tokenizer::Tokenizer;

/// Tokens of text read.
pub const TEXT_TOKENS: usize = 2048;
/// Slots of the two small caches.
pub const CACHE_SLOTS: usize = 256;
/// First tokens StreamingLLM keeps.
pub const SINKS: usize = 4;

/// The three caches compared, by name.
pub fn policies() -> [(&'static str, Policy); 3] {
    [
        ("full cache", Policy::Full { capacity: TEXT_TOKENS }),
        ("latest 256 only", Policy::window(CACHE_SLOTS)),
        ("4 sinks + latest 252", Policy::Streaming { sinks: SINKS, recent: CACHE_SLOTS - SINKS }),
    ]
}

/// The first [`TEXT_TOKENS`] tokens of chapter 10's text (Ambrose Bierce's dictionary, which
/// SmolLM2 was not tuned on).
pub fn text_ids(tok: &Tokenizer) -> Vec<usize> {
    let ids: Vec<usize> = tok.encode(&TEXT[..40_000]).iter().map(|&t| t as usize).collect();
    ids[..TEXT_TOKENS].to_vec()
}

// ANCHOR: surprise
/// The negative log-likelihood of every token after the first, the text read in chunks of 64
/// tokens through a cache with `policy`.
pub fn surprise(model: &Decoder, ids: &[usize], policy: Policy) -> Vec<f64> {
    let mut cache = model.new_cache(policy);
    let mut out = Vec::with_capacity(ids.len() - 1);
    for (c, chunk) in ids.chunks(64).enumerate() {
        let logits = model.forward(chunk, &mut cache, Keep::All);
        for (i, row) in logits.chunks(model.sizes.vocab).enumerate() {
            if let Some(&next) = ids.get(c * 64 + i + 1) {
                out.push(negative_log_likelihood(row, next));
            }
        }
    }
    out
}
// ANCHOR_END: surprise

/// `exp` of the mean of `nll`.
pub fn perplexity_of(nll: &[f64]) -> f64 {
    (nll.iter().sum::<f64>() / nll.len() as f64).exp()
}

/// Tokens per stretch of the text in [`Measured::stretches`].
pub const STRETCH: usize = 128;

/// One cache's reading of the text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    pub cache: String,
    pub slots: usize,
    /// over every token after the first
    pub perplexity: f64,
    /// over the tokens after the first [`CACHE_SLOTS`], once the small caches have dropped some
    pub after_cache: f64,
    /// over each stretch of [`STRETCH`] tokens in turn
    pub stretches: Vec<f64>,
}

/// The three caches over `ids`, on `model`.
pub fn measure(model: &Decoder, ids: &[usize]) -> Vec<Measured> {
    policies()
        .iter()
        .map(|&(name, policy)| {
            let nll = surprise(model, ids, policy);
            Measured {
                cache: name.to_string(),
                slots: policy.slots(),
                perplexity: perplexity_of(&nll),
                after_cache: perplexity_of(&nll[CACHE_SLOTS..]),
                stretches: nll.chunks(STRETCH).map(perplexity_of).collect(),
            }
        })
        .collect()
}

/// `measurements/streaming.json`, written by `--example streaming -- --save`.
pub fn committed_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("measurements").join("streaming.json")
}

/// The committed measurement.
///
/// # Panics
/// If the file is missing or malformed.
pub fn committed() -> Vec<Measured> {
    let text = std::fs::read_to_string(committed_path()).expect("measurements/streaming.json");
    serde_json::from_str(&text).expect("measurements/streaming.json holds the three caches")
}

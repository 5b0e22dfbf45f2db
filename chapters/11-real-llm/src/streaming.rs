//! StreamingLLM (Xiao et al. 2023) on SmolLM2: a long text read through caches that keep
//! everything, only the latest tokens, or the latest tokens and the first four, the attention
//! sinks. Each next token is scored by the model as it reads, so the perplexity shows what each
//! cache costs.

use ch10_language_models::char_model::chars::TEXT;

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

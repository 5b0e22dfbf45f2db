//! The decode path as chapter 10's [`LanguageModel`], so that generation, chat and perplexity
//! take it as they take chapter 10's model.

use ch10_language_models::llama::lm::LanguageModel;

use super::cache::{Cache, Policy};
use super::model::{Decoder, Keep};

/// The longest context SmolLM2's file states (`llama.context_length`): the full cache's storage.
pub const CONTEXT: usize = 8192;

impl LanguageModel for Decoder {
    type Cache = Cache;

    fn vocab(&self) -> usize {
        self.sizes.vocab
    }

    /// A cache for the whole context, allocated once (its pages are touched as tokens arrive).
    fn new_cache(&self) -> Cache {
        Decoder::new_cache(self, Policy::Full { capacity: CONTEXT })
    }

    fn logits(&self, tokens: &[usize]) -> Vec<f32> {
        let mut cache = Decoder::new_cache(self, Policy::Full { capacity: tokens.len() });
        self.forward(tokens, &mut cache, Keep::All)
    }

    fn logits_cached(&self, new: &[usize], cache: &mut Cache) -> Vec<f32> {
        self.forward(new, cache, Keep::All)
    }
}

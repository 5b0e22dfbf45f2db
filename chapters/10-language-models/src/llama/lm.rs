//! [`LanguageModel`]: what generation and the tests need of a causal language model, so that
//! they take a model of any configuration without restating its sizes (chapter 7's
//! `DigitsModel` plays the same part for its trainer).

use dfdx::prelude::*;

use crate::llama::cache::KvCache;
use crate::llama::model::CausalLm;

/// A causal language model that can run one sequence whole, or new tokens against a cache.
pub trait LanguageModel {
    /// What it keeps between steps: a [`KvCache`].
    type Cache;

    /// Logits per position: the vocabulary size.
    fn vocab(&self) -> usize;

    /// An empty cache for this model.
    fn new_cache(&self) -> Self::Cache;

    /// The logits of every position of `tokens` (one sequence, run whole), position after
    /// position: `tokens.len() * vocab` numbers.
    fn logits(&self, tokens: &[usize]) -> Vec<f32>;

    /// The logits of the `new` tokens of one sequence, which follow those `cache` holds; their
    /// keys and values join it.
    fn logits_cached(&self, new: &[usize], cache: &mut Self::Cache) -> Vec<f32>;
}

impl<
        const VOCAB: usize,
        const HIDDEN: usize,
        const HEADS: usize,
        const KV_HEADS: usize,
        const HEAD_DIM: usize,
        const KV_WIDTH: usize,
        const INTERMEDIATE: usize,
        const LAYERS: usize,
        Dev: Device<f32>,
    > LanguageModel
    for CausalLm<VOCAB, HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, INTERMEDIATE, LAYERS, f32, Dev>
{
    type Cache = KvCache<KV_HEADS, HEAD_DIM, Dev>;

    fn vocab(&self) -> usize {
        VOCAB
    }

    fn new_cache(&self) -> Self::Cache {
        CausalLm::new_cache(self)
    }

    fn logits(&self, tokens: &[usize]) -> Vec<f32> {
        let dev = self.lm_head.weight.device();
        self.forward(dev.tensor_from_vec(tokens.to_vec(), (1, tokens.len()))).logits.as_vec()
    }

    fn logits_cached(&self, new: &[usize], cache: &mut Self::Cache) -> Vec<f32> {
        let dev = self.lm_head.weight.device();
        let ids = dev.tensor_from_vec(new.to_vec(), (1, new.len()));
        self.forward_cached(ids, cache).logits.as_vec()
    }
}

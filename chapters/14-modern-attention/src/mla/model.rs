//! A DeepSeek-style language model on chapter 10's parts: pre-norm blocks of multi-head latent
//! attention and chapter 10's SwiGLU network (`DeepseekV3ForCausalLM` with every layer dense).

use ch10_language_models::{RmsNorm, SwiGlu};
use dfdx::prelude::*;

use super::absorbed::Absorbed;
use super::attention::LatentAttention;
use super::cache::LatentCache;
use super::kv_cache::KvCache;
use super::products::{linear, Rows, Weight, Weights};

/// Which form of attention a step over the latent cache runs: keys and values expanded from
/// the latents, or the absorbed matrices straight over them, multiplied out at load time or
/// applied in turn. All give the same numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Expanded,
    Absorbed,
    AbsorbedInTurn,
}

/// One pre-norm block: `x + attention(norm(x))`, then `x + mlp(norm(x))`.
#[derive(Clone, Debug)]
pub struct LatentBlock<
    const HIDDEN: usize,
    const HEADS: usize,
    const Q_RANK: usize,
    const KV_RANK: usize,
    const NOPE: usize,
    const ROPE: usize,
    const V: usize,
    const INTERMEDIATE: usize,
    Dev: Device<f32>,
> {
    pub input_norm: RmsNorm<HIDDEN, f32, Dev>,
    pub attention: LatentAttention<HIDDEN, HEADS, Q_RANK, KV_RANK, NOPE, ROPE, V, Dev>,
    /// The attention's folded matrices ([`LatentAttention::absorb`]), made once.
    pub absorbed: Absorbed<HIDDEN, HEADS, Q_RANK, KV_RANK, Dev>,
    pub post_norm: RmsNorm<HIDDEN, f32, Dev>,
    pub mlp: SwiGlu<HIDDEN, INTERMEDIATE, f32, Dev>,
}

/// Token table, blocks, final norm and output layer (untied).
#[derive(Clone, Debug)]
pub struct LatentLm<
    const VOCAB: usize,
    const HIDDEN: usize,
    const HEADS: usize,
    const Q_RANK: usize,
    const KV_RANK: usize,
    const NOPE: usize,
    const ROPE: usize,
    const V: usize,
    const INTERMEDIATE: usize,
    Dev: Device<f32>,
> {
    pub embed: Weight<VOCAB, HIDDEN, Dev>,
    pub blocks: Vec<LatentBlock<HIDDEN, HEADS, Q_RANK, KV_RANK, NOPE, ROPE, V, INTERMEDIATE, Dev>>,
    pub norm: RmsNorm<HIDDEN, f32, Dev>,
    pub lm_head: Weight<VOCAB, HIDDEN, Dev>,
}

/// What a whole-sequence pass gives: the last hidden state (after the final norm), the logits
/// and every block's attention weights.
pub struct Pass<const VOCAB: usize, const HIDDEN: usize, const HEADS: usize, Dev: Device<f32>> {
    pub hidden: Rows<HIDDEN, Dev>,
    pub logits: Rows<VOCAB, Dev>,
    pub weights: Vec<Weights<HEADS, Dev>>,
}

impl<
        const VOCAB: usize,
        const HIDDEN: usize,
        const HEADS: usize,
        const Q_RANK: usize,
        const KV_RANK: usize,
        const NOPE: usize,
        const ROPE: usize,
        const V: usize,
        const INTERMEDIATE: usize,
        Dev: Device<f32>,
    > LatentLm<VOCAB, HIDDEN, HEADS, Q_RANK, KV_RANK, NOPE, ROPE, V, INTERMEDIATE, Dev>
{
    /// One sequence, whole and causal, in the plain form.
    pub fn forward(&self, ids: &[usize]) -> Pass<VOCAB, HIDDEN, HEADS, Dev> {
        let mut x = crate::hf::embed(&self.embed, ids);
        let mut weights = Vec::with_capacity(self.blocks.len());
        for block in &self.blocks {
            let (a, w) = block.attention.forward(&block.input_norm.forward(x.clone()));
            x = x + a;
            x = x.clone() + block.mlp.forward(block.post_norm.forward(x));
            weights.push(w);
        }
        let hidden = self.norm.forward(x);
        Pass { logits: linear(hidden.clone(), &self.lm_head), hidden, weights }
    }

    /// An empty cache, one [`LatentCache`] per block.
    pub fn new_cache(&self) -> Vec<LatentCache<KV_RANK, ROPE, Dev>> {
        self.blocks.iter().map(|_| LatentCache::new()).collect()
    }

    /// The logits of `new` tokens, which follow those the cache holds; their latents join it.
    pub fn forward_cached(
        &self,
        new: &[usize],
        cache: &mut [LatentCache<KV_RANK, ROPE, Dev>],
        form: Form,
    ) -> Rows<VOCAB, Dev> {
        assert_eq!(cache.len(), self.blocks.len(), "one LatentCache per block");
        self.through_blocks(new, |i, attention, normed| {
            let start = cache[i].len();
            let (queries, keys) = (start..start + new.len(), 0..start + new.len());
            let held = cache[i].append(attention.latents(normed, start));
            match form {
                Form::Expanded => {
                    let q = attention.queries(normed, start);
                    attention.attend_expanded(q, &held, queries, keys).0
                }
                Form::Absorbed => {
                    let folded = &self.blocks[i].absorbed;
                    attention.attend_absorbed(folded, normed, &held, queries, keys)
                }
                Form::AbsorbedInTurn => {
                    attention.attend_absorbed_in_turn(normed, &held, queries, keys)
                }
            }
        })
    }

    /// An empty cache of expanded keys and values, one [`KvCache`] per block.
    pub fn new_kv_cache(&self) -> Vec<KvCache<HEADS, NOPE, ROPE, V, Dev>> {
        self.blocks.iter().map(|_| KvCache::new()).collect()
    }

    /// The logits of `new` tokens through a cache of expanded keys and values: only the new
    /// tokens' latents are expanded, and their keys and values join the cache.
    pub fn forward_kv_cached(
        &self,
        new: &[usize],
        cache: &mut [KvCache<HEADS, NOPE, ROPE, V, Dev>],
    ) -> Rows<VOCAB, Dev> {
        assert_eq!(cache.len(), self.blocks.len(), "one KvCache per block");
        self.through_blocks(new, |i, attention, normed| {
            let start = cache[i].len();
            let (queries, keys) = (start..start + new.len(), 0..start + new.len());
            let held = cache[i].append(attention.expand(&attention.latents(normed, start)));
            attention.attend_keys_values(attention.queries(normed, start), &held, queries, keys).0
        })
    }

    /// The blocks over `new` tokens, block `i`'s attention given by `attend(i, attention,
    /// normed input)`, then the final norm and the logits.
    fn through_blocks(
        &self,
        new: &[usize],
        mut attend: impl FnMut(
            usize,
            &LatentAttention<HIDDEN, HEADS, Q_RANK, KV_RANK, NOPE, ROPE, V, Dev>,
            &Rows<HIDDEN, Dev>,
        ) -> Rows<HIDDEN, Dev>,
    ) -> Rows<VOCAB, Dev> {
        let mut x = crate::hf::embed(&self.embed, new);
        for (i, block) in self.blocks.iter().enumerate() {
            let a = attend(i, &block.attention, &block.input_norm.forward(x.clone()));
            x = x + a;
            x = x.clone() + block.mlp.forward(block.post_norm.forward(x));
        }
        linear(self.norm.forward(x), &self.lm_head)
    }
}

//! Gemma 3's decoder on the chapter's and chapter 10's parts: Qwen3's per-head QK-norm
//! ([`NormedAttention`]), chapter 10's attention with a window and its rolling cache, and what
//! Gemma adds: an RMSNorm on both sides of each sublayer, a GELU-gated feed-forward network, the
//! token table scaled by `sqrt(HIDDEN)` and reused as the output layer, and scores divided by
//! `sqrt(query_pre_attn_scalar)` instead of `sqrt(head_dim)`.

use ch10_language_models::llama::gqa::Tokens;
use ch10_language_models::{KvCache, LayerCache, RmsNorm, Rope, SwiGlu};
use dfdx::nn::Module;
use dfdx::prelude::*;

use crate::mla::products::{linear, Weight, Weights};
use crate::qk_norm::NormedAttention;

/// What a layer attends to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// The last `window` keys (the query's own included), RoPE base 10,000, a rolling cache.
    Local,
    /// Every earlier key, RoPE base 1,000,000, a cache that keeps everything.
    Global,
}

/// One Gemma block: `x + post(attention(pre(x)))`, then the same around the feed-forward network.
#[derive(Clone, Debug)]
pub struct GemmaBlock<
    const HIDDEN: usize,
    const HEADS: usize,
    const KV_HEADS: usize,
    const HEAD_DIM: usize,
    const KV_WIDTH: usize,
    const INTERMEDIATE: usize,
    Dev: Device<f32>,
> {
    pub attention: NormedAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, Dev>,
    /// `input_layernorm`, `post_attention_layernorm`, `pre_feedforward_layernorm`,
    /// `post_feedforward_layernorm`.
    pub norms: [RmsNorm<HIDDEN, f32, Dev>; 4],
    /// Chapter 10's three matrices, with GELU (tanh form) in place of SiLU.
    pub mlp: SwiGlu<HIDDEN, INTERMEDIATE, f32, Dev>,
    pub reach: Reach,
}

/// Token table (also the output layer), blocks, final norm.
#[derive(Clone, Debug)]
pub struct GemmaLm<
    const VOCAB: usize,
    const HIDDEN: usize,
    const HEADS: usize,
    const KV_HEADS: usize,
    const HEAD_DIM: usize,
    const KV_WIDTH: usize,
    const INTERMEDIATE: usize,
    Dev: Device<f32>,
> {
    pub embed: Weight<VOCAB, HIDDEN, Dev>,
    pub blocks: Vec<GemmaBlock<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, INTERMEDIATE, Dev>>,
    pub norm: RmsNorm<HIDDEN, f32, Dev>,
    pub local_rope: Rope,
    pub global_rope: Rope,
    pub window: usize,
    pub query_pre_attn_scalar: f32,
}

/// The whole sequence's last hidden state (after the final norm), logits and every block's
/// attention weights.
pub struct GemmaPass<const VOCAB: usize, const HIDDEN: usize, const HEADS: usize, Dev: Device<f32>>
{
    pub hidden: Tokens<HIDDEN, Dev>,
    pub logits: Tokens<VOCAB, Dev>,
    pub weights: Vec<Weights<HEADS, Dev>>,
}

/// `down(gelu_tanh(gate(x)) * up(x))`: Hugging Face's `Gemma3MLP` with `gelu_pytorch_tanh`.
fn geglu<const HIDDEN: usize, const INTERMEDIATE: usize, Dev: Device<f32>>(
    mlp: &SwiGlu<HIDDEN, INTERMEDIATE, f32, Dev>,
    x: Tokens<HIDDEN, Dev>,
) -> Tokens<HIDDEN, Dev> {
    let gate = mlp.gate_proj.forward(x.clone()).fast_gelu();
    mlp.down_proj.forward(gate * mlp.up_proj.forward(x))
}

impl<
        const VOCAB: usize,
        const HIDDEN: usize,
        const HEADS: usize,
        const KV_HEADS: usize,
        const HEAD_DIM: usize,
        const KV_WIDTH: usize,
        const INTERMEDIATE: usize,
        Dev: Device<f32>,
    > GemmaLm<VOCAB, HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, INTERMEDIATE, Dev>
{
    /// A layer's RoPE and window.
    // ANCHOR: reach
    pub fn reach(&self, reach: Reach) -> (&Rope, Option<usize>) {
        match reach {
            Reach::Local => (&self.local_rope, Some(self.window)),
            Reach::Global => (&self.global_rope, None),
        }
    }
    // ANCHOR_END: reach

    fn run(
        &self,
        ids: &[usize],
        mut cache: Option<&mut KvCache<KV_HEADS, HEAD_DIM, Dev>>,
    ) -> GemmaPass<VOCAB, HIDDEN, HEADS, Dev> {
        let mut x = crate::hf::embed(&self.embed, ids) * (HIDDEN as f32).sqrt();
        // chapter 1's attention divides by sqrt(HEAD_DIM); Gemma by sqrt(query_pre_attn_scalar)
        let query_scale = (HEAD_DIM as f32 / self.query_pre_attn_scalar).sqrt();
        let mut weights = Vec::with_capacity(self.blocks.len());
        for (i, block) in self.blocks.iter().enumerate() {
            let (rope, window) = self.reach(block.reach);
            let [pre, post, pre_ff, post_ff] = &block.norms;
            let start = cache.as_ref().map_or(0, |c| c.layers[i].next_position());
            let (q, k, v) = block.attention.project(pre.forward(x.clone()), rope, start);
            let q = q * query_scale;
            let queries = start..start + ids.len();
            let gqa = &block.attention.gqa;
            let (out, w) = match cache.as_deref_mut() {
                Some(c) => {
                    let (k, v, keys) = c.layers[i].append(k, v);
                    gqa.attend(q, k, v, queries, keys, window)
                }
                None => gqa.attend(q, k, v, queries.clone(), queries, window),
            };
            x = x + post.forward(out);
            x = x.clone() + post_ff.forward(geglu(&block.mlp, pre_ff.forward(x)));
            weights.push(w);
        }
        let hidden = self.norm.forward(x);
        GemmaPass { logits: linear(hidden.clone(), &self.embed), hidden, weights }
    }

    /// One sequence, whole and causal, each layer within its reach.
    pub fn forward(&self, ids: &[usize]) -> GemmaPass<VOCAB, HIDDEN, HEADS, Dev> {
        self.run(ids, None)
    }

    /// An empty cache: a rolling buffer of the window for each local layer, an unbounded one for
    /// each global layer.
    // ANCHOR: new_cache
    pub fn new_cache(&self) -> KvCache<KV_HEADS, HEAD_DIM, Dev> {
        let layer = |b: &GemmaBlock<_, _, _, _, _, _, _>| match b.reach {
            Reach::Local => LayerCache::rolling(self.window),
            Reach::Global => LayerCache::new(),
        };
        KvCache { layers: self.blocks.iter().map(layer).collect() }
    }
    // ANCHOR_END: new_cache

    /// The logits of `new` tokens, which follow those the cache holds.
    pub fn forward_cached(
        &self,
        new: &[usize],
        cache: &mut KvCache<KV_HEADS, HEAD_DIM, Dev>,
    ) -> Tokens<VOCAB, Dev> {
        self.run(new, Some(cache)).logits
    }
}

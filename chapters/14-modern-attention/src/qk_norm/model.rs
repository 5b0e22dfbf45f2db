//! QK-norm on chapter 10's grouped-query attention: RMSNorm on the queries and the keys before
//! RoPE, either per head (Qwen3: `Qwen3ForCausalLM`) or across the whole width before the split
//! into heads (OLMo 2: `Olmo2ForCausalLM`). OLMo 2's blocks also move their norms: each normalises
//! its sublayer's output, `x + norm(attention(x))`, where Llama's and Qwen3's normalise its input.

use ch03_multi_head::split_heads;
use ch10_language_models::llama::gqa::{QueryHeads, Tokens};
use ch10_language_models::{GroupedQueryAttention, KvCache, RmsNorm, Rope, SwiGlu};
use dfdx::prelude::*;

use crate::mla::products::{linear, Weight, Weights};

/// Where the queries' and keys' RMSNorm acts.
#[derive(Clone, Debug)]
pub enum QkNorms<
    const HIDDEN: usize,
    const HEAD_DIM: usize,
    const KV_WIDTH: usize,
    Dev: Device<f32>,
> {
    /// Qwen3: over each head's `HEAD_DIM` features, one weight vector shared by the heads.
    PerHead { q: RmsNorm<HEAD_DIM, f32, Dev>, k: RmsNorm<HEAD_DIM, f32, Dev> },
    /// OLMo 2: over all `HIDDEN` query features and all `KV_WIDTH` key features at once.
    FullWidth { q: RmsNorm<HIDDEN, f32, Dev>, k: RmsNorm<KV_WIDTH, f32, Dev> },
}

/// Which side of each sublayer a block normalises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// `x + f(norm(x))`: Llama, Qwen3.
    Input,
    /// `x + norm(f(x))`: OLMo 2.
    Output,
}

/// RMSNorm over the last axis of every head's vectors.
pub fn norm_heads<const H: usize, const D: usize, Dev: Device<f32>, T: Tape<f32, Dev>>(
    norm: &RmsNorm<D, f32, Dev>,
    x: QueryHeads<H, D, Dev, T>,
) -> QueryHeads<H, D, Dev, T> {
    let (b, _, s, _) = *x.shape();
    let rows = x.reshape_like(&(b, H * s, Const::<D>));
    norm.forward(rows).reshape_like(&(b, Const::<H>, s, Const::<D>))
}

/// Grouped-query attention with QK-norm.
#[derive(Clone, Debug)]
pub struct NormedAttention<
    const HIDDEN: usize,
    const HEADS: usize,
    const KV_HEADS: usize,
    const HEAD_DIM: usize,
    const KV_WIDTH: usize,
    Dev: Device<f32>,
> {
    pub gqa: GroupedQueryAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, f32, Dev>,
    pub norms: QkNorms<HIDDEN, HEAD_DIM, KV_WIDTH, Dev>,
}

type Projected<const H: usize, const KV: usize, const D: usize, Dev> = (
    QueryHeads<H, D, Dev, NoneTape>,
    QueryHeads<KV, D, Dev, NoneTape>,
    QueryHeads<KV, D, Dev, NoneTape>,
);

impl<
        const HIDDEN: usize,
        const HEADS: usize,
        const KV_HEADS: usize,
        const HEAD_DIM: usize,
        const KV_WIDTH: usize,
        Dev: Device<f32>,
    > NormedAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, Dev>
{
    /// Queries, keys and values in heads, queries and keys normalised and then turned by RoPE,
    /// the first token at position `start`.
    // ANCHOR: project
    pub fn project(
        &self,
        x: Tokens<HIDDEN, Dev>,
        rope: &Rope,
        start: usize,
    ) -> Projected<HEADS, KV_HEADS, HEAD_DIM, Dev> {
        let (q, k, v) = match &self.norms {
            QkNorms::PerHead { q, k } => {
                let (qh, kh, v) = self.gqa.heads(x);
                (norm_heads(q, qh), norm_heads(k, kh), v)
            }
            QkNorms::FullWidth { q, k } => {
                let g = &self.gqa;
                let qn = q.forward(g.q_proj.forward(x.clone()));
                let kn = k.forward(g.k_proj.forward(x.clone()));
                (
                    split_heads(qn, (Const::<HEADS>, Const::<HEAD_DIM>)),
                    split_heads(kn, (Const::<KV_HEADS>, Const::<HEAD_DIM>)),
                    split_heads(g.v_proj.forward(x), (Const::<KV_HEADS>, Const::<HEAD_DIM>)),
                )
            }
        };
        (rope.apply(q, start), rope.apply(k, start), v)
    }
    // ANCHOR_END: project
}

/// One block: QK-normed attention and chapter 10's SwiGLU, each with its RMSNorm on the side
/// `placement` says.
#[derive(Clone, Debug)]
pub struct NormedBlock<
    const HIDDEN: usize,
    const HEADS: usize,
    const KV_HEADS: usize,
    const HEAD_DIM: usize,
    const KV_WIDTH: usize,
    const INTERMEDIATE: usize,
    Dev: Device<f32>,
> {
    pub attention: NormedAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, Dev>,
    pub attention_norm: RmsNorm<HIDDEN, f32, Dev>,
    pub mlp: SwiGlu<HIDDEN, INTERMEDIATE, f32, Dev>,
    pub mlp_norm: RmsNorm<HIDDEN, f32, Dev>,
    pub placement: Placement,
}

/// Token table, blocks, final norm and output layer (untied).
#[derive(Clone, Debug)]
pub struct NormedLm<
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
    pub blocks: Vec<NormedBlock<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, INTERMEDIATE, Dev>>,
    pub norm: RmsNorm<HIDDEN, f32, Dev>,
    pub lm_head: Weight<VOCAB, HIDDEN, Dev>,
    pub rope: Rope,
}

/// The whole sequence's last hidden state (after the final norm), logits and every block's
/// attention weights.
pub struct NormedPass<const VOCAB: usize, const HIDDEN: usize, const HEADS: usize, Dev: Device<f32>>
{
    pub hidden: Tokens<HIDDEN, Dev>,
    pub logits: Tokens<VOCAB, Dev>,
    pub weights: Vec<Weights<HEADS, Dev>>,
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
    > NormedLm<VOCAB, HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, INTERMEDIATE, Dev>
{
    /// `x + f(norm(x))` or `x + norm(f(x))`.
    fn sublayer(
        placement: Placement,
        norm: &RmsNorm<HIDDEN, f32, Dev>,
        x: Tokens<HIDDEN, Dev>,
        f: impl FnOnce(Tokens<HIDDEN, Dev>) -> Tokens<HIDDEN, Dev>,
    ) -> Tokens<HIDDEN, Dev> {
        match placement {
            Placement::Input => x.clone() + f(norm.forward(x)),
            Placement::Output => x.clone() + norm.forward(f(x)),
        }
    }

    /// The logits of new tokens, the first at position `start`; with a cache, their keys and
    /// values join it and they attend to everything it holds, without one, to each other.
    fn run(
        &self,
        ids: &[usize],
        mut cache: Option<&mut KvCache<KV_HEADS, HEAD_DIM, Dev>>,
    ) -> NormedPass<VOCAB, HIDDEN, HEADS, Dev> {
        let mut x = crate::hf::embed(&self.embed, ids);
        let mut weights = Vec::with_capacity(self.blocks.len());
        for (i, block) in self.blocks.iter().enumerate() {
            let mut w = None;
            let attend = |h: Tokens<HIDDEN, Dev>| {
                let start = cache.as_ref().map_or(0, |c| c.layers[i].next_position());
                let (q, k, v) = block.attention.project(h, &self.rope, start);
                let queries = start..start + ids.len();
                let (out, weights) = match cache.as_deref_mut() {
                    Some(c) => {
                        let (k, v, keys) = c.layers[i].append(k, v);
                        block.attention.gqa.attend(q, k, v, queries, keys, None)
                    }
                    None => block.attention.gqa.attend(q, k, v, queries.clone(), queries, None),
                };
                w = Some(weights);
                out
            };
            x = Self::sublayer(block.placement, &block.attention_norm, x, attend);
            x = Self::sublayer(block.placement, &block.mlp_norm, x, |h| block.mlp.forward(h));
            weights.push(w.expect("the attention ran"));
        }
        let hidden = self.norm.forward(x);
        NormedPass { logits: linear(hidden.clone(), &self.lm_head), hidden, weights }
    }

    /// One sequence, whole and causal.
    pub fn forward(&self, ids: &[usize]) -> NormedPass<VOCAB, HIDDEN, HEADS, Dev> {
        self.run(ids, None)
    }

    /// An empty cache.
    pub fn new_cache(&self) -> KvCache<KV_HEADS, HEAD_DIM, Dev> {
        KvCache { layers: self.blocks.iter().map(|_| Default::default()).collect() }
    }

    /// The logits of `new` tokens, which follow those the cache holds.
    pub fn forward_cached(
        &self,
        new: &[usize],
        cache: &mut KvCache<KV_HEADS, HEAD_DIM, Dev>,
    ) -> Tokens<VOCAB, Dev> {
        self.run(new, Some(cache)).logits
    }
}

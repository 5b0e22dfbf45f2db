//! Chapter 10's character model (its `LlamaBlock`s, sizes and RoPE) with two optional changes to
//! each block's attention: Qwen3's per-head QK-norm, and a sigmoid gate on each head's output
//! (Qiu et al. 2025). Every variant holds the same parameters, drawn in the same order, and uses
//! those its changes need: the three runs start from the same weights.

use ch10_language_models::llama::config::TINY;
use ch10_language_models::llama::gqa::Tokens;
use ch10_language_models::{LlamaBlock, RmsNorm, Rope, RopeLayout, VOCAB};
use dfdx::nn::modules::{Embedding, UnbiasedLinear};
use dfdx::nn::{BuildModule, Module, ModuleVisitor, TensorCollection};
use dfdx::prelude::*;

use crate::mla::products::Weights;
use crate::qk_norm::model::norm_heads;

const HIDDEN: usize = TINY.hidden_size;
const HEADS: usize = TINY.num_attention_heads;
const KV_HEADS: usize = TINY.num_key_value_heads;
const HEAD_DIM: usize = TINY.head_dim;
const KV_WIDTH: usize = TINY.kv_width();
const INTERMEDIATE: usize = TINY.intermediate_size;
const LAYERS: usize = TINY.num_hidden_layers;

/// Which changes a run makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Variant {
    /// Chapter 10's attention.
    #[default]
    Plain,
    /// RMSNorm on each head's queries and keys before RoPE.
    QkNorm,
    /// `attention ⊙ sigmoid(x W_G)` before the output projection.
    Gate,
}

/// Chapter 10's block with the variants' extra parameters.
#[derive(Clone, Debug)]
pub struct VariantBlock<E: Dtype, Dev: Storage<E>> {
    pub block: LlamaBlock<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, INTERMEDIATE, E, Dev>,
    pub q_norm: RmsNorm<HEAD_DIM, E, Dev>,
    pub k_norm: RmsNorm<HEAD_DIM, E, Dev>,
    pub gate: UnbiasedLinear<HIDDEN, HIDDEN, E, Dev>,
}

/// Chapter 10's `TinyLlama` with [`VariantBlock`]s.
#[derive(Clone, Debug)]
pub struct VariantLm<E: Dtype, Dev: Storage<E>> {
    pub embed_tokens: Embedding<VOCAB, HIDDEN, E, Dev>,
    pub layers: Vec<VariantBlock<E, Dev>>,
    pub norm: RmsNorm<HIDDEN, E, Dev>,
    pub lm_head: UnbiasedLinear<HIDDEN, VOCAB, E, Dev>,
    pub variant: Variant,
}

/// The logits, and per layer the scores `q·k/sqrt(d)` before the mask and the weights.
pub struct Inspected<Dev: Device<f32>, T> {
    pub logits: Tensor<(usize, usize, Const<VOCAB>), f32, Dev, T>,
    pub scores: Vec<Weights<HEADS, Dev>>,
    pub weights: Vec<Weights<HEADS, Dev>>,
}

impl<Dev: Device<f32>> VariantLm<f32, Dev> {
    /// Chapter 10's initialisation, every variant's parameters drawn.
    pub fn new(dev: &Dev, variant: Variant) -> Self {
        VariantLm { variant, ..BuildModule::build(dev) }
    }

    /// One block, the whole window at once, causal; returns its output, scores and weights.
    // ANCHOR: block
    fn block<T: Tape<f32, Dev>>(
        &self,
        layer: &VariantBlock<f32, Dev>,
        x: Tokens<HIDDEN, Dev, T>,
        rope: &Rope,
    ) -> (Tokens<HIDDEN, Dev, T>, Weights<HEADS, Dev>, Weights<HEADS, Dev>) {
        let n = x.shape().1;
        let (attn, b) = (&layer.block.self_attn, &layer.block);
        let normed = b.input_layernorm.forward(x.retaped::<T>());
        let gate = (self.variant == Variant::Gate)
            .then(|| layer.gate.forward(normed.retaped::<T>()).sigmoid());
        let (q, k, v) = attn.heads(normed);
        let (q, k) = match self.variant {
            Variant::QkNorm => (norm_heads(&layer.q_norm, q), norm_heads(&layer.k_norm, k)),
            _ => (q, k),
        };
        let (q, k) = (rope.apply(q, 0), rope.apply(k, 0));
        let scores = scores(&q, &k);
        let (heads, weights) = attn.attend_heads(q, k, v, 0..n, 0..n, None);
        let heads = match gate {
            Some(g) => heads * g,
            None => heads,
        };
        let h = x + attn.o_proj.forward(heads);
        let out = h.retaped::<T>() + b.mlp.forward(b.post_attention_layernorm.forward(h));
        (out, scores, weights)
    }
    // ANCHOR_END: block

    /// `ids` `(b, n)`, the whole windows at once.
    pub fn inspect<T: Tape<f32, Dev>>(
        &self,
        ids: Tensor<(usize, usize), usize, Dev, T>,
    ) -> Inspected<Dev, T> {
        let rope = Rope::new(10_000.0, RopeLayout::HalfSplit);
        let mut x = self.embed_tokens.forward(ids);
        let (mut all_scores, mut all_weights) = (Vec::new(), Vec::new());
        for layer in &self.layers {
            let (out, scores, weights) = self.block(layer, x, &rope);
            x = out;
            all_scores.push(scores);
            all_weights.push(weights);
        }
        let logits = self.lm_head.forward(self.norm.forward(x));
        Inspected { logits, scores: all_scores, weights: all_weights }
    }
}

/// `q·k/sqrt(d)` of every query and key, before any mask (read only: no gradient).
fn scores<Dev: Device<f32>, T: Tape<f32, Dev>>(
    q: &Tensor<(usize, Const<HEADS>, usize, Const<HEAD_DIM>), f32, Dev, T>,
    k: &Tensor<(usize, Const<KV_HEADS>, usize, Const<HEAD_DIM>), f32, Dev, T>,
) -> Weights<HEADS, Dev> {
    let k =
        ch10_language_models::repeat_kv::<HEADS, KV_HEADS, HEAD_DIM, _, _>(k.retaped::<NoneTape>());
    let q = q.retaped::<NoneTape>();
    q.matmul(k.permute::<_, Axes4<0, 1, 3, 2>>()) / (HEAD_DIM as f32).sqrt()
}

impl<Dev: Device<f32>> TensorCollection<f32, Dev> for VariantBlock<f32, Dev> {
    type To<E2: Dtype, D2: Device<E2>> = VariantBlock<E2, D2>;

    fn iter_tensors<V: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut V,
    ) -> Result<Option<Self::To<V::E2, V::D2>>, V::Err> {
        visitor.visit_fields(
            (
                Self::module("block", |s| &s.block, |s| &mut s.block),
                Self::module("q_norm", |s| &s.q_norm, |s| &mut s.q_norm),
                Self::module("k_norm", |s| &s.k_norm, |s| &mut s.k_norm),
                Self::module("gate", |s| &s.gate, |s| &mut s.gate),
            ),
            |(block, q_norm, k_norm, gate)| VariantBlock { block, q_norm, k_norm, gate },
        )
    }
}

impl<Dev: Device<f32>> TensorCollection<f32, Dev> for VariantLm<f32, Dev> {
    type To<E2: Dtype, D2: Device<E2>> = VariantLm<E2, D2>;

    fn iter_tensors<V: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut V,
    ) -> Result<Option<Self::To<V::E2, V::D2>>, V::Err> {
        let names: Vec<String> = (0..LAYERS).map(|i| format!("layers.{i}")).collect();
        let layers = names
            .iter()
            .enumerate()
            .map(|(i, n)| Self::module(n, move |s| &s.layers[i], move |s| &mut s.layers[i]))
            .collect::<Vec<_>>();
        visitor.visit_fields(
            (
                Self::module("embed_tokens", |s| &s.embed_tokens, |s| &mut s.embed_tokens),
                layers,
                Self::module("norm", |s| &s.norm, |s| &mut s.norm),
                Self::module("lm_head", |s| &s.lm_head, |s| &mut s.lm_head),
            ),
            |(embed_tokens, layers, norm, lm_head)| VariantLm {
                embed_tokens,
                layers,
                norm,
                lm_head,
                variant: Variant::default(),
            },
        )
    }
}

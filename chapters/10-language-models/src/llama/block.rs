//! One decoder layer of a Llama-style model: chapter 5's pre-norm block without cross-attention,
//! with RMSNorm for LayerNorm, grouped-query attention with RoPE, and SwiGLU for the ReLU network.

use ch01_attention::Weights;
use dfdx::nn::{BuildModule, ModuleVisitor, TensorCollection};
use dfdx::prelude::*;

use crate::llama::cache::LayerCache;
use crate::llama::gqa::{GroupedQueryAttention, Tokens};
use crate::llama::mask::Window;
use crate::llama::rms::RmsNorm;
use crate::llama::rope::Rope;
use crate::llama::swiglu::SwiGlu;

/// `x + attn(norm1(x))`, then `x + mlp(norm2(x))`: pre-norm residual sub-layers, no dropout.
///
/// # Generics
/// - `HIDDEN`, `HEADS`, `KV_HEADS`, `HEAD_DIM`, `KV_WIDTH`: as [`GroupedQueryAttention`].
/// - `INTERMEDIATE`: `intermediate_size`, the hidden width of the [`SwiGlu`] network.
/// - `E`: the element type of the weights (`f32`); `Dev`: the dfdx device.
///
/// PyTorch equivalent: Hugging Face's `LlamaDecoderLayer` (the field names are its own); chapter
/// 5's [`EncoderBlock`](ch05_blocks::EncoderBlock) with [`PreNorm`](ch05_blocks::PreNorm) is the
/// same arrangement with LayerNorm, multi-head attention and a ReLU network.
// ANCHOR: block
#[derive(Clone, Debug)]
pub struct LlamaBlock<
    const HIDDEN: usize,
    const HEADS: usize,
    const KV_HEADS: usize,
    const HEAD_DIM: usize,
    const KV_WIDTH: usize,
    const INTERMEDIATE: usize,
    E: Dtype,
    Dev: Storage<E>,
> {
    pub self_attn: GroupedQueryAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, E, Dev>,
    pub mlp: SwiGlu<HIDDEN, INTERMEDIATE, E, Dev>,
    pub input_layernorm: RmsNorm<HIDDEN, E, Dev>,
    pub post_attention_layernorm: RmsNorm<HIDDEN, E, Dev>,
}

impl<
        const HIDDEN: usize,
        const HEADS: usize,
        const KV_HEADS: usize,
        const HEAD_DIM: usize,
        const KV_WIDTH: usize,
        const INTERMEDIATE: usize,
        Dev: Device<f32>,
    > LlamaBlock<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, INTERMEDIATE, f32, Dev>
{
    /// The whole sequence, causal, each query over at most `window` keys: training, and the
    /// reference for the cache.
    pub fn forward<T: Tape<f32, Dev>>(
        &self,
        x: Tokens<HIDDEN, Dev, T>,
        rope: &Rope,
        window: Window,
    ) -> (Tokens<HIDDEN, Dev, T>, Weights<usize, Const<HEADS>, usize, usize, Dev>) {
        let normed = self.input_layernorm.forward(x.retaped::<T>());
        let (attended, weights) = self.self_attn.forward(normed, rope, window);
        let x = x + attended;
        let normed = self.post_attention_layernorm.forward(x.retaped::<T>());
        (x + self.mlp.forward(normed), weights)
    }

    /// New tokens against this layer's cache.
    pub fn forward_cached(
        &self,
        x: Tokens<HIDDEN, Dev>,
        rope: &Rope,
        cache: &mut LayerCache<KV_HEADS, HEAD_DIM, Dev>,
    ) -> (Tokens<HIDDEN, Dev>, Weights<usize, Const<HEADS>, usize, usize, Dev>) {
        let normed = self.input_layernorm.forward(x.clone());
        let (attended, weights) = self.self_attn.forward_cached(normed, rope, cache);
        let x = x + attended;
        let normed = self.post_attention_layernorm.forward(x.clone());
        (x + self.mlp.forward(normed), weights)
    }
}
// ANCHOR_END: block

impl<
        const HIDDEN: usize,
        const HEADS: usize,
        const KV_HEADS: usize,
        const HEAD_DIM: usize,
        const KV_WIDTH: usize,
        const INTERMEDIATE: usize,
        Dev: Device<f32>,
    > LlamaBlock<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, INTERMEDIATE, f32, Dev>
{
    pub fn new(dev: &Dev) -> Self {
        const {
            GroupedQueryAttention::<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, f32, Dev>::SHAPE_CHECK
        };
        BuildModule::build(dev)
    }
}

impl<
        const HIDDEN: usize,
        const HEADS: usize,
        const KV_HEADS: usize,
        const HEAD_DIM: usize,
        const KV_WIDTH: usize,
        const INTERMEDIATE: usize,
        Dev: Device<f32>,
    > TensorCollection<f32, Dev>
    for LlamaBlock<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, INTERMEDIATE, f32, Dev>
{
    type To<E2: Dtype, D2: Device<E2>> =
        LlamaBlock<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, INTERMEDIATE, E2, D2>;

    fn iter_tensors<V: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut V,
    ) -> Result<Option<Self::To<V::E2, V::D2>>, V::Err> {
        visitor.visit_fields(
            (
                Self::module("self_attn", |s| &s.self_attn, |s| &mut s.self_attn),
                Self::module("mlp", |s| &s.mlp, |s| &mut s.mlp),
                Self::module("input_layernorm", |s| &s.input_layernorm, |s| &mut s.input_layernorm),
                Self::module(
                    "post_attention_layernorm",
                    |s| &s.post_attention_layernorm,
                    |s| &mut s.post_attention_layernorm,
                ),
            ),
            |(self_attn, mlp, input_layernorm, post_attention_layernorm)| LlamaBlock {
                self_attn,
                mlp,
                input_layernorm,
                post_attention_layernorm,
            },
        )
    }
}

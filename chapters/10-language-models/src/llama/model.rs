//! A decoder-only causal language model in the Llama style: token embedding, `LAYERS`
//! [`LlamaBlock`]s, a final RMSNorm and an output projection to one logit per vocabulary entry. No
//! positional table: positions enter attention through RoPE.

use std::path::Path;

use ch01_attention::Weights;
use ch04_positions::TokenOutOfVocab;
use dfdx::nn::modules::{Embedding, UnbiasedLinear};
use dfdx::nn::{BuildModule, Module, ModuleVisitor, ScalarOptions, TensorCollection};
use dfdx::prelude::*;
use support::LoadError;

use crate::llama::block::LlamaBlock;
use crate::llama::cache::KvCache;
use crate::llama::mask::Window;
use crate::llama::rms::RmsNorm;
use crate::llama::rope::{Rope, RopeLayout, DEFAULT_ROPE_BASE};

/// Token ids: `(batch, seq)`.
pub type Ids<Dev, T = NoneTape> = Tensor<(usize, usize), usize, Dev, T>;

/// Logits: `(batch, seq, VOCAB)`, one score per vocabulary entry for the token after each position.
pub type Logits<const VOCAB: usize, Dev, T = NoneTape> =
    Tensor<(usize, usize, Const<VOCAB>), f32, Dev, T>;

/// The attention weights of every layer, `(batch, HEADS, queries, keys)` each.
pub type LayerWeights<const HEADS: usize, Dev> =
    Vec<Weights<usize, Const<HEADS>, usize, usize, Dev>>;

/// What one pass of the model gives.
#[derive(Clone, Debug)]
pub struct Output<const VOCAB: usize, const HEADS: usize, Dev: Device<f32>, T = NoneTape> {
    /// `(batch, seq, VOCAB)`: for each position it ran, a score per vocabulary entry for the
    /// token after it
    pub logits: Logits<VOCAB, Dev, T>,
    /// every layer's attention weights, `(batch, HEADS, queries, keys)` each
    pub weights: LayerWeights<HEADS, Dev>,
}

/// A Llama-style decoder-only language model.
///
/// # Generics
/// - `VOCAB`: the vocabulary size (`vocab_size`).
/// - `HIDDEN`, `HEADS`, `KV_HEADS`, `HEAD_DIM`, `KV_WIDTH`, `INTERMEDIATE`: as [`LlamaBlock`].
/// - `LAYERS`: the number of blocks (`num_hidden_layers`).
/// - `E`: the element type of the weights (`f32`); `Dev`: the dfdx device.
///
/// PyTorch equivalent: Hugging Face's `LlamaForCausalLM` with `tie_word_embeddings=False`. Its
/// parameters carry Hugging Face's names (`model.embed_tokens.weight`,
/// `model.layers.0.self_attn.q_proj.weight`, ..., `lm_head.weight`), so a float32 checkpoint saved
/// by `transformers` loads by its own names ([`Self::load`] says what it checks and what it
/// does not read).
// ANCHOR: struct
#[derive(Clone, Debug)]
pub struct CausalLm<
    const VOCAB: usize,
    const HIDDEN: usize,
    const HEADS: usize,
    const KV_HEADS: usize,
    const HEAD_DIM: usize,
    const KV_WIDTH: usize,
    const INTERMEDIATE: usize,
    const LAYERS: usize,
    E: Dtype,
    Dev: Storage<E>,
> {
    pub embed_tokens: Embedding<VOCAB, HIDDEN, E, Dev>,
    pub layers: Vec<LlamaBlock<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, INTERMEDIATE, E, Dev>>,
    pub norm: RmsNorm<HIDDEN, E, Dev>,
    pub lm_head: UnbiasedLinear<HIDDEN, VOCAB, E, Dev>,
    pub rope: Rope,
    /// how many keys a query sees at most; `Window(None)`: all (Llama), `Some(w)`: Mistral's
    /// sliding window, and [`Self::new_cache`] gives a rolling buffer of `w`
    pub window: Window,
}
// ANCHOR_END: struct

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
    > CausalLm<VOCAB, HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, INTERMEDIATE, LAYERS, f32, Dev>
{
    /// `nn.Linear`-style initialisation, RoPE with base 10,000 in the half-split layout.
    pub fn new(dev: &Dev) -> Self {
        BuildModule::build(dev)
    }

    /// Every id must be `< VOCAB`.
    fn check_ids<T>(ids: &Ids<Dev, T>) -> Result<(), TokenOutOfVocab> {
        match ids.as_vec().into_iter().find(|&t| t >= VOCAB) {
            Some(token) => Err(TokenOutOfVocab { token, vocab: VOCAB }),
            None => Ok(()),
        }
    }

    /// The logits of every position of `ids`, and every layer's attention weights. The whole
    /// sequence at once, causal; taped ids (`ids.traced(grads)`) train the model.
    // ANCHOR: forward
    pub fn try_forward<T: Tape<f32, Dev>>(
        &self,
        ids: Ids<Dev, T>,
    ) -> Result<Output<VOCAB, HEADS, Dev, T>, TokenOutOfVocab> {
        Self::check_ids(&ids)?;
        let mut x = self.embed_tokens.forward(ids); // (b, s, HIDDEN), no position added
        let mut weights = Vec::with_capacity(LAYERS);
        for layer in &self.layers {
            let (out, w) = layer.forward(x, &self.rope, self.window);
            x = out;
            weights.push(w);
        }
        Ok(Output { logits: self.lm_head.forward(self.norm.forward(x)), weights })
    }
    // ANCHOR_END: forward

    /// [`Self::try_forward`], panicking with the error's message.
    pub fn forward<T: Tape<f32, Dev>>(&self, ids: Ids<Dev, T>) -> Output<VOCAB, HEADS, Dev, T> {
        self.try_forward(ids).unwrap_or_else(|e| panic!("{e}"))
    }

    /// New tokens against a cache (the prompt at once, then one token per step): only their
    /// logits come out; their keys and values join `cache`.
    // ANCHOR: forward_cached
    pub fn try_forward_cached(
        &self,
        ids: Ids<Dev>,
        cache: &mut KvCache<KV_HEADS, HEAD_DIM, Dev>,
    ) -> Result<Output<VOCAB, HEADS, Dev>, TokenOutOfVocab> {
        Self::check_ids(&ids)?;
        assert_eq!(cache.layers.len(), LAYERS, "the cache must have one LayerCache per block");
        let mut x = self.embed_tokens.forward(ids);
        let mut weights = Vec::with_capacity(LAYERS);
        for (layer, layer_cache) in self.layers.iter().zip(&mut cache.layers) {
            let (out, w) = layer.forward_cached(x, &self.rope, layer_cache);
            x = out;
            weights.push(w);
        }
        Ok(Output { logits: self.lm_head.forward(self.norm.forward(x)), weights })
    }
    // ANCHOR_END: forward_cached

    /// [`Self::try_forward_cached`], panicking with the error's message.
    pub fn forward_cached(
        &self,
        ids: Ids<Dev>,
        cache: &mut KvCache<KV_HEADS, HEAD_DIM, Dev>,
    ) -> Output<VOCAB, HEADS, Dev> {
        self.try_forward_cached(ids, cache).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A model with the weights of a safetensors file under Hugging Face's names (what
    /// `transformers` saves for `LlamaForCausalLM` in float32); `remedy` is the command that
    /// writes the file.
    ///
    /// Every weight must be there, with its shape, stored as float32: anything else is an error
    /// naming the entry ([`checkpoint::check_dtypes`](crate::llama::checkpoint::check_dtypes)).
    /// The settings `rope_theta`, `rope_layout` and `sliding_window` and each norm's `eps` are
    /// read from the file when it has them (this crate's own saves do); a Hugging Face checkpoint
    /// keeps them in its `config.json` instead, which this loader does not read, so they stay at
    /// [`Self::new`]'s values: Llama's 10,000, the half-split layout, no window, `1e-5`.
    pub fn load(
        dev: &Dev,
        path: impl AsRef<Path>,
        remedy: &'static str,
    ) -> Result<Self, LoadError> {
        let mut model = Self::new(dev);
        let path = path.as_ref();
        if path.exists() {
            crate::llama::checkpoint::check_dtypes(path, remedy)?;
        }
        support::saved::load_weights(path, remedy, |p| model.load_safetensors(p))?;
        Ok(model)
    }

    /// An empty cache for this model, one [`LayerCache`](crate::LayerCache) per block: a rolling
    /// buffer if the model has a window.
    pub fn new_cache(&self) -> KvCache<KV_HEADS, HEAD_DIM, Dev> {
        match self.window.0 {
            Some(w) => KvCache::rolling(LAYERS, w),
            None => KvCache::new(LAYERS),
        }
    }
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
    > TensorCollection<f32, Dev>
    for CausalLm<VOCAB, HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, INTERMEDIATE, LAYERS, f32, Dev>
{
    type To<E2: Dtype, D2: Device<E2>> =
        CausalLm<VOCAB, HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, INTERMEDIATE, LAYERS, E2, D2>;

    fn iter_tensors<Vis: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut Vis,
    ) -> Result<Option<Self::To<Vis::E2, Vis::D2>>, Vis::Err> {
        let names: Vec<String> = (0..LAYERS).map(|i| format!("model.layers.{i}")).collect();
        let layers = names
            .iter()
            .enumerate()
            .map(|(i, n)| Self::module(n, move |s| &s.layers[i], move |s| &mut s.layers[i]))
            .collect::<Vec<_>>();
        let weights = (
            Self::module("model.embed_tokens", |s| &s.embed_tokens, |s| &mut s.embed_tokens),
            layers,
            Self::module("model.norm", |s| &s.norm, |s| &mut s.norm),
            Self::module("lm_head", |s| &s.lm_head, |s| &mut s.lm_head),
        );
        let settings = (
            Self::scalar(
                "rope_theta",
                |s| &s.rope.base,
                |s| &mut s.rope.base,
                ScalarOptions::from_default(DEFAULT_ROPE_BASE),
            ),
            Self::scalar(
                "rope_layout",
                |s| &s.rope.layout,
                |s| &mut s.rope.layout,
                ScalarOptions::from_default(RopeLayout::HalfSplit),
            ),
            Self::scalar(
                "sliding_window",
                |s| &s.window,
                |s| &mut s.window,
                ScalarOptions::from_default(Window(None)),
            ),
        );
        visitor.visit_fields(
            (weights, settings),
            |((embed_tokens, layers, norm, lm_head), (base, layout, window))| CausalLm {
                embed_tokens,
                layers,
                norm,
                lm_head,
                rope: Rope { base, layout },
                window,
            },
        )
    }
}

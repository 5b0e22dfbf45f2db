//! BERT ([Devlin et al. 2019](https://arxiv.org/abs/1810.04805)) built from chapter 5's post-norm
//! encoder and chapter 6's padding mask. Three things differ from the 2017 encoder: the
//! feed-forward network uses GELU, the positions are a learned table rather than sinusoids, and a
//! third embedding says which segment ("token type") a token belongs to.

use ch01_attention::Mask;
use ch05_blocks::{Activation, Encoder, LayerNorm, Mode, PostNorm};
use dfdx::nn::modules::Embedding;
use dfdx::nn::{BuildModule, Module, ModuleVisitor, TensorCollection};
use dfdx::prelude::*;

/// The word, position and token-type tables, summed and normalised: BERT's input.
///
/// # Generics
/// - `V`: the vocabulary size; `M`: `d_model`;
/// - `P`: the longest sequence the position table covers; `T`: the number of token types.
///
/// Hugging Face equivalent: `BertEmbeddings` (`word_embeddings`, `position_embeddings`,
/// `token_type_embeddings`, `LayerNorm`; its dropout does nothing in inference).
#[derive(Clone, Debug)]
pub struct Embeddings<
    const V: usize,
    const M: usize,
    const P: usize,
    const T: usize,
    E: Dtype,
    Dev: Storage<E>,
> {
    pub word: Embedding<V, M, E, Dev>,
    pub position: Embedding<P, M, E, Dev>,
    pub token_type: Embedding<T, M, E, Dev>,
    pub norm: LayerNorm<M, E, Dev>,
}

/// A BERT encoder: [`Embeddings`], then `L` of chapter 5's post-norm encoder blocks with GELU.
///
/// # Generics
/// - `V`, `M`, `P`, `T`: those of [`Embeddings`];
/// - `H`: heads; `DK`: the width of a head (`H * DK == M`); `F`: the feed-forward width;
///   `L`: the number of blocks.
///
/// Hugging Face equivalent: `BertModel` without its pooler (sentence embeddings do not use it).
// ANCHOR: bert
#[derive(Clone, Debug)]
pub struct Bert<
    const V: usize,
    const M: usize,
    const H: usize,
    const DK: usize,
    const F: usize,
    const L: usize,
    const P: usize,
    const T: usize,
    E: Dtype,
    Dev: Storage<E>,
> {
    pub embeddings: Embeddings<V, M, P, T, E, Dev>,
    /// chapter 5's stack: `norm(x + attention(x))`, then `norm(x + ffn(x))`, `L` times
    pub encoder: Encoder<M, H, DK, F, L, PostNorm, E, Dev>,
}

/// all-MiniLM-L6-v2: a vocabulary of 30,522 pieces, `d_model` 384, 12 heads of 32, a
/// feed-forward width of 1,536, 6 blocks, 512 positions and 2 token types (its `config.json`).
pub type MiniLm<Dev> = Bert<30_522, 384, 12, 32, 1_536, 6, 512, 2, f32, Dev>;
// ANCHOR_END: bert

/// A small random BERT of the same design, for the tests that need no model file.
pub type TinyBert<Dev> = Bert<40, 16, 4, 4, 32, 2, 24, 2, f32, Dev>;

/// The encoder's output for a batch: every token's vector, and every block's attention weights.
#[derive(Clone, Debug)]
pub struct BertOutput<const M: usize, const H: usize, Dev: Device<f32>> {
    /// `(batch, seq, d_model)`: the last block's output
    pub hidden: Tensor<(usize, usize, Const<M>), f32, Dev>,
    /// per block, `(batch, heads, seq, seq)`
    pub weights: Vec<Tensor<(usize, Const<H>, usize, usize), f32, Dev>>,
}

impl<
        const V: usize,
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        const L: usize,
        const P: usize,
        const T: usize,
        Dev: Device<f32>,
    > Bert<V, M, H, DK, F, L, P, T, f32, Dev>
{
    /// Random weights (for tests), set up as BERT is: GELU in every block and `eps = 1e-12`.
    pub fn new(dev: &Dev) -> Self {
        let mut bert: Self = BuildModule::build(dev);
        bert.set_bert_settings(1e-12);
        bert
    }

    /// GELU in every feed-forward network and `eps` in every layer norm, dropout off (BERT's
    /// dropout only acts in training, and this chapter only runs inference).
    pub fn set_bert_settings(&mut self, eps: f64) {
        self.embeddings.norm.eps = eps;
        for block in &mut self.encoder.layers {
            block.ffn.activation = Activation::Gelu;
            block.norm1.eps = eps;
            block.norm2.eps = eps;
            block.set_dropout(0.0);
        }
    }

    /// The sum of the three embeddings of every token, normalised: `(batch, seq, d_model)`.
    /// `ids` and `types` are `(batch, seq)`; position `i` of every sequence uses row `i`.
    ///
    /// # Panics
    /// If the sequences are longer than the position table (`P`); the tokenizer truncates first.
    // ANCHOR: embed
    pub fn embed(
        &self,
        ids: Tensor<(usize, usize), usize, Dev>,
        types: Tensor<(usize, usize), usize, Dev>,
    ) -> Tensor<(usize, usize, Const<M>), f32, Dev> {
        let dev = ids.device().clone();
        let (batch, seq) = *ids.shape();
        assert!(seq <= P, "{seq} tokens, but BERT's position table has {P} rows");
        let positions = dev.tensor_from_vec((0..seq).collect(), (seq,));
        let e = &self.embeddings;
        let position =
            e.position.forward(positions).broadcast_like::<_, Axis<0>>(&(batch, seq, Const::<M>));
        e.norm.forward(e.word.forward(ids) + position + e.token_type.forward(types))
    }
    // ANCHOR_END: embed

    /// Runs the encoder over padded token ids (`(batch, seq)`), every sequence of type 0.
    /// `mask`: `true` where a query may attend to a key (chapter 6's [`encoder_mask`] hides the
    /// padding); `None` lets every token see every other, padding included.
    ///
    /// [`encoder_mask`]: ch06_masks::encoder_mask
    // ANCHOR: forward
    pub fn forward(
        &self,
        ids: Tensor<(usize, usize), usize, Dev>,
        mask: Option<&Mask<usize, Const<H>, usize, usize, Dev>>,
    ) -> BertOutput<M, H, Dev> {
        let (batch, seq) = *ids.shape();
        let types = ids.device().tensor_from_vec(vec![0; batch * seq], (batch, seq));
        let x = self.embed(ids, types);
        let (hidden, weights) = self.encoder.forward(x, mask, Mode::Eval);
        BertOutput { hidden, weights }
    }
    // ANCHOR_END: forward
}

impl<const V: usize, const M: usize, const P: usize, const T: usize, Dev: Device<f32>>
    TensorCollection<f32, Dev> for Embeddings<V, M, P, T, f32, Dev>
{
    type To<E2: Dtype, D2: Device<E2>> = Embeddings<V, M, P, T, E2, D2>;

    fn iter_tensors<W: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut W,
    ) -> Result<Option<Self::To<W::E2, W::D2>>, W::Err> {
        visitor.visit_fields(
            (
                Self::module("word", |s| &s.word, |s| &mut s.word),
                Self::module("position", |s| &s.position, |s| &mut s.position),
                Self::module("token_type", |s| &s.token_type, |s| &mut s.token_type),
                Self::module("norm", |s| &s.norm, |s| &mut s.norm),
            ),
            |(word, position, token_type, norm)| Embeddings { word, position, token_type, norm },
        )
    }
}

impl<
        const V: usize,
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        const L: usize,
        const P: usize,
        const T: usize,
        Dev: Device<f32>,
    > TensorCollection<f32, Dev> for Bert<V, M, H, DK, F, L, P, T, f32, Dev>
{
    type To<E2: Dtype, D2: Device<E2>> = Bert<V, M, H, DK, F, L, P, T, E2, D2>;

    fn iter_tensors<W: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut W,
    ) -> Result<Option<Self::To<W::E2, W::D2>>, W::Err> {
        visitor.visit_fields(
            (
                Self::module("embeddings", |s| &s.embeddings, |s| &mut s.embeddings),
                Self::module("encoder", |s| &s.encoder, |s| &mut s.encoder),
            ),
            |(embeddings, encoder)| Bert { embeddings, encoder },
        )
    }
}

//! The text decoder: the whole sequence at once on chapter 5's blocks, or one token at a time with
//! chapter 10's KV cache for the self-attention and the cross-attention's keys and values computed
//! once from the encoder's output.

use ch01_attention::{broadcast_mask, causal_allowed, scaled_dot_product_attention, Mask};
use ch03_multi_head::split_heads;
use ch05_blocks::{DecoderBlock, DecoderWeights, Mode, PreNorm};
use ch10_language_models::{positions_allowed, LayerCache};
use dfdx::prelude::*;

use super::Whisper;
use crate::config::{FF, HEADS, HEAD_DIM, TEXT_POSITIONS, WIDTH};

/// Tokens (or what the encoder heard) for a batch: `(batch, seq, 384)`.
pub type Hidden<Dev> = Tensor<(usize, usize, Const<WIDTH>), f32, Dev>;
/// Keys or values split into heads: `(batch, 6, seq, 64)`.
pub type Heads<Dev> = Tensor<(usize, Const<HEADS>, usize, Const<HEAD_DIM>), f32, Dev>;
/// Attention weights: `(batch, 6, queries, keys)`.
pub type HeadWeights<Dev> = Tensor<(usize, Const<HEADS>, usize, usize), f32, Dev>;
type Block<Dev> = DecoderBlock<WIDTH, HEADS, HEAD_DIM, FF, PreNorm, f32, Dev>;

/// One block's cross-attention keys and values: the encoder's output projected once, since it
/// does not change while the text is written.
#[derive(Clone, Debug)]
pub struct CrossKv<Dev: Device<f32>> {
    pub k: Heads<Dev>,
    pub v: Heads<Dev>,
}

/// A transcript being written: each block's KV cache and cross-attention keys and values.
#[derive(Clone, Debug)]
pub struct Decoding<Dev: Device<f32>> {
    pub caches: Vec<LayerCache<HEADS, HEAD_DIM, Dev>>,
    pub cross: Vec<CrossKv<Dev>>,
}

/// What one step gives: the logits of the next token, and each block's cross-attention weights
/// for the new tokens, `(1, 6, new tokens, 1500)`.
#[derive(Clone, Debug)]
pub struct Step<Dev: Device<f32>> {
    pub logits: Vec<f32>,
    pub cross_weights: Vec<HeadWeights<Dev>>,
}

/// `(b, 6, n, 64)` -> `(b, n, 384)`: the heads side by side again.
fn merge<Dev: Device<f32>>(heads: Heads<Dev>) -> Hidden<Dev> {
    let (b, _, n, _) = *heads.shape();
    heads.permute::<_, Axes4<0, 2, 1, 3>>().reshape_like(&(b, n, Const::<WIDTH>))
}

/// One pre-norm decoder block on new tokens `x` at the positions after those in `cache`.
// ANCHOR: block_step
fn block_step<Dev: Device<f32>>(
    block: &Block<Dev>,
    x: Hidden<Dev>,
    cache: &mut LayerCache<HEADS, HEAD_DIM, Dev>,
    cross: &CrossKv<Dev>,
) -> (Hidden<Dev>, HeadWeights<Dev>) {
    let dev = x.device().clone();
    let (b, n, _) = *x.shape();
    let heads = (Const::<HEADS>, Const::<HEAD_DIM>);
    // 1. masked self-attention: the new keys and values join the cache (chapter 10)
    let (a, h) = (&block.self_attn, block.norm1.forward(x.clone()));
    let q = split_heads(a.w_q.forward(h.clone()), heads);
    let (k, v) =
        (split_heads(a.w_k.forward(h.clone()), heads), split_heads(a.w_v.forward(h), heads));
    let start = cache.next_position();
    let (k, v, keys) = cache.append(k, v);
    let allowed = positions_allowed(&dev, start..start + n, keys, None);
    let (out, _) =
        scaled_dot_product_attention(q, k, v, Some(&broadcast_mask(allowed, b, heads.0)));
    let x = x + a.w_o.forward(merge(out));
    // 2. cross-attention: queries from the text, keys and values from the audio, computed once
    let (c, h) = (&block.cross_attn, block.norm2.forward(x.clone()));
    let q = split_heads(c.w_q.forward(h), heads);
    let none: Option<&Mask<usize, Const<HEADS>, usize, usize, Dev>> = None;
    let (out, weights) = scaled_dot_product_attention(q, cross.k.clone(), cross.v.clone(), none);
    let x = x + c.w_o.forward(merge(out));
    // 3. the feed-forward network
    let x = x.clone() + block.ffn.forward(block.norm3.forward(x), Mode::Eval);
    (x, weights)
}
// ANCHOR_END: block_step

impl<Dev: Device<f32>> Whisper<Dev> {
    /// The vectors of `ids` at positions `start..`: the token table's rows plus the learned
    /// positions', `(1, n, 384)`.
    ///
    /// # Panics
    /// Past the 448 positions the decoder learned, or for an id past the vocabulary.
    pub fn embed(&self, ids: &[u32], start: usize) -> Hidden<Dev> {
        let n = ids.len();
        assert!(start + n <= TEXT_POSITIONS, "Whisper's decoder has {TEXT_POSITIONS} positions");
        let dev = self.tokens.device().clone();
        let ids = dev.tensor_from_vec(ids.iter().map(|&i| i as usize).collect(), (n,));
        let positions = dev.tensor_from_vec((start..start + n).collect(), (n,));
        let x = self.tokens.clone().gather(ids) + self.text_positions.clone().gather(positions);
        x.reshape_like(&(1, n, Const::<WIDTH>))
    }

    /// The logits of every token for each position of `x`: the last layer norm, then the token
    /// table again (its rows are the output projection), `(1, n, 51864)`.
    pub fn logits(&self, x: Hidden<Dev>) -> Tensor<(usize, usize, usize), f32, Dev> {
        self.decoder_norm.forward(x).matmul(self.tokens.clone().permute())
    }

    /// The whole text `ids` at once over `audio` (the encoder's output), causal, on chapter 5's
    /// decoder: every position's logits, and every block's weights. The reference the cached
    /// steps are checked against.
    // ANCHOR: decode_all
    pub fn decode_all(
        &self,
        ids: &[u32],
        audio: &Hidden<Dev>,
    ) -> (
        Tensor<(usize, usize, usize), f32, Dev>,
        Vec<DecoderWeights<usize, HEADS, usize, usize, Dev>>,
    ) {
        let dev = audio.device().clone();
        let causal = broadcast_mask(causal_allowed(&dev, ids.len()), 1, Const::<HEADS>);
        let (x, weights) =
            self.decoder.forward(self.embed(ids, 0), audio, Some(&causal), None, Mode::Eval);
        (self.logits(x), weights)
    }
    // ANCHOR_END: decode_all

    /// A decoding over `audio`: empty caches, and each block's cross-attention keys and values.
    // ANCHOR: start
    pub fn start(&self, audio: &Hidden<Dev>) -> Decoding<Dev> {
        let heads = (Const::<HEADS>, Const::<HEAD_DIM>);
        let cross = (self.decoder.layers.iter())
            .map(|block| CrossKv {
                k: split_heads(block.cross_attn.w_k.forward(audio.clone()), heads),
                v: split_heads(block.cross_attn.w_v.forward(audio.clone()), heads),
            })
            .collect();
        Decoding { caches: vec![LayerCache::new(); self.decoder.layers.len()], cross }
    }
    // ANCHOR_END: start
}

impl<Dev: Device<f32>> Decoding<Dev> {
    /// How many tokens have been read.
    pub fn len(&self) -> usize {
        self.caches[0].next_position()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads `ids` (the prompt, then one token a step) and gives the next token's logits.
    // ANCHOR: step
    pub fn step(&mut self, model: &Whisper<Dev>, ids: &[u32]) -> Step<Dev> {
        let mut x = model.embed(ids, self.len());
        let mut cross_weights = Vec::with_capacity(self.caches.len());
        let layers = model.decoder.layers.iter().zip(&mut self.caches).zip(&self.cross);
        for ((block, cache), cross) in layers {
            let (y, w) = block_step(block, x, cache, cross);
            x = y;
            cross_weights.push(w);
        }
        let n = ids.len();
        let last = x.slice((.., n - 1.., ..));
        Step { logits: model.logits(last).as_vec(), cross_weights }
    }
    // ANCHOR_END: step
}

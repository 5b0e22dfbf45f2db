//! gpt-oss's attention: chapter 10's grouped-query heads (with biases), RoPE on halves, an
//! optional sliding window, and a learned sink per head in the softmax.

use std::ops::Range;

use ch03_multi_head::split_heads;
use ch10_language_models::{repeat_kv, LayerCache, Rope};
use dfdx::nn::modules::Linear;
use dfdx::nn::Module;
use dfdx::prelude::*;

use crate::mla::products::{masked, PerHead, Rows, Weights};

/// The softmax over each query's keys and one more logit per head, `sinks[h]`, whose share is
/// then dropped: a row's weights sum to less than 1, the rest gone to the sink, a key with no
/// value. `scores` must be masked already.
// ANCHOR: softmax_with_sinks
pub fn softmax_with_sinks<const H: usize, Dev: Device<f32>>(
    scores: Weights<H, Dev>,
    sinks: &Tensor<(Const<H>,), f32, Dev>,
) -> Weights<H, Dev> {
    let (b, _, sq, sk) = *scores.shape();
    let sink = sinks.clone().broadcast_like::<_, Axes3<0, 2, 3>>(&(b, Const::<H>, sq, 1usize));
    let with_sink = (scores, sink).concat_along(Axis::<3>); // (b, H, sq, sk + 1)
    with_sink.softmax::<Axis<3>>().slice((.., .., .., ..sk))
}
// ANCHOR_END: softmax_with_sinks

/// What each query gave its head's sink: 1 minus the sum of its weights, `(b, H, sq)`.
pub fn sink_share<const H: usize, Dev: Device<f32>>(
    weights: Weights<H, Dev>,
) -> Tensor<(usize, Const<H>, usize), f32, Dev> {
    weights.sum::<_, Axis<3>>().negate() + 1.0
}

/// One attention layer of gpt-oss: `HEADS` query heads of `HEAD_DIM` over `KV_HEADS` key/value
/// heads (`Q_WIDTH = HEADS · HEAD_DIM`, `KV_WIDTH = KV_HEADS · HEAD_DIM`, named because stable
/// Rust cannot compute them), biases on every projection, and `window` keys at most per query
/// (`None`: every earlier key). gpt-oss-20b: `HIDDEN` 2880, 64 heads of 64, 8 key/value heads,
/// windows of 128 on every other layer. Hugging Face: `GptOssAttention`.
#[derive(Clone, Debug)]
pub struct SinkAttention<
    const HIDDEN: usize,
    const HEADS: usize,
    const KV_HEADS: usize,
    const HEAD_DIM: usize,
    const Q_WIDTH: usize,
    const KV_WIDTH: usize,
    Dev: Device<f32>,
> {
    pub q_proj: Linear<HIDDEN, Q_WIDTH, f32, Dev>,
    pub k_proj: Linear<HIDDEN, KV_WIDTH, f32, Dev>,
    pub v_proj: Linear<HIDDEN, KV_WIDTH, f32, Dev>,
    pub o_proj: Linear<Q_WIDTH, HIDDEN, f32, Dev>,
    /// One learned logit per head (`sinks`).
    pub sinks: Tensor<(Const<HEADS>,), f32, Dev>,
    pub window: Option<usize>,
    pub rope: Rope,
}

impl<
        const HIDDEN: usize,
        const HEADS: usize,
        const KV_HEADS: usize,
        const HEAD_DIM: usize,
        const Q_WIDTH: usize,
        const KV_WIDTH: usize,
        Dev: Device<f32>,
    > SinkAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, Q_WIDTH, KV_WIDTH, Dev>
{
    const SHAPE_CHECK: () = {
        assert!(HEADS * HEAD_DIM == Q_WIDTH && KV_HEADS * HEAD_DIM == KV_WIDTH);
        assert!(KV_HEADS > 0 && HEADS.is_multiple_of(KV_HEADS));
    };

    /// Queries, keys and values of `x`, queries and keys turned by RoPE from position `start`.
    fn project(
        &self,
        x: Rows<HIDDEN, Dev>,
        start: usize,
    ) -> (
        PerHead<HEADS, HEAD_DIM, Dev>,
        PerHead<KV_HEADS, HEAD_DIM, Dev>,
        PerHead<KV_HEADS, HEAD_DIM, Dev>,
    ) {
        const { Self::SHAPE_CHECK };
        let q = split_heads(self.q_proj.forward(x.clone()), (Const::<HEADS>, Const::<HEAD_DIM>));
        let k = split_heads(self.k_proj.forward(x.clone()), (Const::<KV_HEADS>, Const::<HEAD_DIM>));
        let v = split_heads(self.v_proj.forward(x), (Const::<KV_HEADS>, Const::<HEAD_DIM>));
        (self.rope.apply(q, start), self.rope.apply(k, start), v)
    }

    /// The whole sequence at once. Returns the output and the weights (the sinks' shares dropped).
    pub fn forward(&self, x: Rows<HIDDEN, Dev>) -> (Rows<HIDDEN, Dev>, Weights<HEADS, Dev>) {
        let n = x.shape().1;
        let (q, k, v) = self.project(x, 0);
        self.attend(q, k, v, 0..n, 0..n)
    }

    /// New tokens against a cache (chapter 10's; a rolling one for a windowed layer).
    pub fn forward_cached(
        &self,
        x: Rows<HIDDEN, Dev>,
        cache: &mut LayerCache<KV_HEADS, HEAD_DIM, Dev>,
    ) -> (Rows<HIDDEN, Dev>, Weights<HEADS, Dev>) {
        let start = cache.next_position();
        let queries = start..start + x.shape().1;
        let (q, k, v) = self.project(x, start);
        let (k, v, keys) = cache.append(k, v);
        self.attend(q, k, v, queries, keys)
    }

    /// The cache this layer needs: a rolling buffer of its window, or one that keeps everything.
    pub fn new_cache(&self) -> LayerCache<KV_HEADS, HEAD_DIM, Dev> {
        self.window.map_or_else(LayerCache::new, LayerCache::rolling)
    }

    // ANCHOR: attend
    fn attend(
        &self,
        q: PerHead<HEADS, HEAD_DIM, Dev>,
        k: PerHead<KV_HEADS, HEAD_DIM, Dev>,
        v: PerHead<KV_HEADS, HEAD_DIM, Dev>,
        queries: Range<usize>,
        keys: Range<usize>,
    ) -> (Rows<HIDDEN, Dev>, Weights<HEADS, Dev>) {
        let (b, _, n, _) = *q.shape();
        let k = repeat_kv::<HEADS, KV_HEADS, HEAD_DIM, _, _>(k);
        let v = repeat_kv::<HEADS, KV_HEADS, HEAD_DIM, _, _>(v);
        let scores = q.matmul(k.permute::<_, Axes4<0, 1, 3, 2>>()) * (HEAD_DIM as f32).powf(-0.5);
        let weights = softmax_with_sinks(masked(scores, queries, keys, self.window), &self.sinks);
        let heads = weights.clone().matmul(v);
        let merged =
            heads.permute::<_, Axes4<0, 2, 1, 3>>().reshape_like(&(b, n, Const::<Q_WIDTH>));
        (self.o_proj.forward(merged), weights)
    }
    // ANCHOR_END: attend
}

//! The KV cache: the keys and values of every token already seen, kept per layer so that each
//! new token computes its own key and value only.
//!
//! Without it, generating token `n + 1` runs the whole model on all `n + 1` tokens again: the
//! keys and values of the first `n` come out exactly as they did the step before (the mask keeps
//! every earlier token blind to later ones). With it, a step projects one token and attends over
//! the cached keys. The cached keys are stored *after* RoPE has turned them, each by its own
//! position, so they are never turned again.

use std::ops::Range;

use dfdx::prelude::*;

/// Keys or values of one layer: `(batch, kv_heads, positions, head_dim)`.
pub type KvTensor<const KV_HEADS: usize, const HEAD_DIM: usize, Dev> =
    Tensor<(usize, Const<KV_HEADS>, usize, Const<HEAD_DIM>), f32, Dev>;

/// The cached keys and values of one attention layer.
///
/// # Generics
/// - `KV_HEADS`: the number of key/value heads (fewer than the query heads under grouped-query
///   attention: that is what makes the cache smaller).
/// - `HEAD_DIM`: the width of one head.
/// - `Dev`: the dfdx device that holds the tensors.
///
/// With a window of `w` keys it is a rolling buffer: it keeps the last `w` positions only, as
/// Mistral 7B does for its sliding-window attention, so its memory stops growing at `w` tokens.
/// (Mistral writes position `p` into slot `p mod w`; this cache keeps the same keys in position
/// order, which attention cannot tell apart.)
// ANCHOR: layer_cache
#[derive(Clone, Debug)]
pub struct LayerCache<const KV_HEADS: usize, const HEAD_DIM: usize, Dev: Device<f32>> {
    keys: Option<KvTensor<KV_HEADS, HEAD_DIM, Dev>>,
    values: Option<KvTensor<KV_HEADS, HEAD_DIM, Dev>>,
    /// the position of the first key held
    first: usize,
    /// how many keys a query sees at most (sliding window); `None` = all
    window: Option<usize>,
}
// ANCHOR_END: layer_cache

impl<const KV_HEADS: usize, const HEAD_DIM: usize, Dev: Device<f32>> Default
    for LayerCache<KV_HEADS, HEAD_DIM, Dev>
{
    fn default() -> Self {
        LayerCache { keys: None, values: None, first: 0, window: None }
    }
}

impl<const KV_HEADS: usize, const HEAD_DIM: usize, Dev: Device<f32>>
    LayerCache<KV_HEADS, HEAD_DIM, Dev>
{
    /// An empty cache that keeps every position.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty rolling buffer that keeps the last `window` positions.
    ///
    /// # Panics
    /// If `window` is 0.
    pub fn rolling(window: usize) -> Self {
        assert!(window > 0, "LayerCache::rolling: the window must hold at least one key");
        LayerCache { window: Some(window), ..Self::default() }
    }

    /// The window, if this is a rolling buffer.
    pub fn window(&self) -> Option<usize> {
        self.window
    }

    /// How many positions it holds now.
    pub fn len(&self) -> usize {
        self.keys.as_ref().map_or(0, |k| k.shape().2)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The position the next token gets: every token seen so far, held or dropped.
    pub fn next_position(&self) -> usize {
        self.first + self.len()
    }

    /// The positions of the keys it holds.
    pub fn positions(&self) -> Range<usize> {
        self.first..self.next_position()
    }

    /// Appends the keys and values of new tokens (already turned by RoPE) and returns what the
    /// new queries attend to: every key held before and the new ones, with their positions.
    /// A rolling buffer then drops what no later query can see.
    // ANCHOR: append
    pub fn append(
        &mut self,
        k: KvTensor<KV_HEADS, HEAD_DIM, Dev>,
        v: KvTensor<KV_HEADS, HEAD_DIM, Dev>,
    ) -> (KvTensor<KV_HEADS, HEAD_DIM, Dev>, KvTensor<KV_HEADS, HEAD_DIM, Dev>, Range<usize>) {
        // the first new query sees `window - 1` earlier keys at most: older ones go first
        self.keep_last(self.window.map_or(usize::MAX, |w| w - 1));
        let first = self.first;
        let (k, v) = match (self.keys.take(), self.values.take()) {
            (Some(old_k), Some(old_v)) => {
                ((old_k, k).concat_along(Axis::<2>), (old_v, v).concat_along(Axis::<2>))
            }
            _ => (k, v),
        };
        let len = k.shape().2;
        (self.keys, self.values) = (Some(k.clone()), Some(v.clone()));
        self.keep_last(self.window.unwrap_or(usize::MAX)); // a rolling buffer holds `window`
        (k, v, first..first + len)
    }

    /// Drops all but the last `n` positions held.
    fn keep_last(&mut self, n: usize) {
        let drop = self.len().saturating_sub(n);
        if drop > 0 {
            self.keys = self.keys.take().map(|k| k.slice((.., .., drop.., ..)));
            self.values = self.values.take().map(|v| v.slice((.., .., drop.., ..)));
            self.first += drop;
        }
    }
    // ANCHOR_END: append

    /// Bytes of the tensors it holds (`f32`).
    pub fn bytes(&self) -> usize {
        let batch = self.keys.as_ref().map_or(0, |k| k.shape().0);
        2 * batch * KV_HEADS * self.len() * HEAD_DIM * std::mem::size_of::<f32>()
    }
}

/// The caches of every layer of a model, and the positions they have seen.
#[derive(Clone, Debug)]
pub struct KvCache<const KV_HEADS: usize, const HEAD_DIM: usize, Dev: Device<f32>> {
    pub layers: Vec<LayerCache<KV_HEADS, HEAD_DIM, Dev>>,
}

impl<const KV_HEADS: usize, const HEAD_DIM: usize, Dev: Device<f32>>
    KvCache<KV_HEADS, HEAD_DIM, Dev>
{
    /// Empty caches for `layers` layers that keep everything.
    pub fn new(layers: usize) -> Self {
        KvCache { layers: (0..layers).map(|_| LayerCache::new()).collect() }
    }

    /// Empty rolling buffers of `window` positions for `layers` layers.
    pub fn rolling(layers: usize, window: usize) -> Self {
        KvCache { layers: (0..layers).map(|_| LayerCache::rolling(window)).collect() }
    }

    /// The position the next token gets.
    pub fn next_position(&self) -> usize {
        self.layers.first().map_or(0, LayerCache::next_position)
    }

    /// Bytes held by every layer's keys and values (`f32`).
    pub fn bytes(&self) -> usize {
        self.layers.iter().map(LayerCache::bytes).sum()
    }
}

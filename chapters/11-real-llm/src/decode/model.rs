//! SmolLM2's forward pass written on plain slices for generation: the same layers as chapter
//! 10's [`CausalLm`](ch10_language_models::CausalLm), in the same order and with the same
//! formulas, but a step runs the few tokens it has without building tensors, its matrices may
//! stay in their quantized blocks ([`Matrix`]), and its cache is allocated once ([`Cache`]).

use std::time::{Duration, Instant};

use ch08_efficient::fast::Isa;
use ch10_language_models::Rope;
use support::clock::now;

use super::attention::{attend_prompt, attend_token};
use super::cache::{Cache, Policy};
use super::matrix::{apply_each, Matrix};
use super::sizes::Sizes;

/// One layer's weights: `Llama`'s names in GGUF's spelling.
#[derive(Clone, Debug)]
pub struct Layer {
    pub attn_norm: Vec<f32>,
    pub q: Matrix,
    pub k: Matrix,
    pub v: Matrix,
    pub o: Matrix,
    pub ffn_norm: Vec<f32>,
    pub gate: Matrix,
    pub up: Matrix,
    pub down: Matrix,
}

/// A Llama-style model for generation; the output projection is tied to the embedding.
#[derive(Clone, Debug)]
pub struct Decoder {
    pub sizes: Sizes,
    pub embed: Matrix,
    /// the output projection; `None`: tied to `embed`, as SmolLM2's
    pub output: Option<Matrix>,
    pub layers: Vec<Layer>,
    pub norm: Vec<f32>,
    pub eps: f32,
    pub rope: Rope,
    /// the instruction set the products run on
    pub isa: Isa,
}

/// Where a pass's time went, summed over passes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Profile {
    /// RMSNorm and the query, key and value projections
    pub qkv: Duration,
    /// RoPE, the cache and the attention itself
    pub attention: Duration,
    /// the output projection of attention and its residual
    pub out: Duration,
    /// RMSNorm, the gated feed-forward network and its residual
    pub feed_forward: Duration,
    /// the final norm and the output projection to the vocabulary
    pub logits: Duration,
}

impl Profile {
    /// `(part, time)`, in the order a pass runs them.
    pub fn parts(&self) -> [(&'static str, Duration); 5] {
        [
            ("norm, q/k/v projections", self.qkv),
            ("RoPE, cache, attention", self.attention),
            ("attention output projection", self.out),
            ("norm, feed-forward network", self.feed_forward),
            ("final norm, vocabulary logits", self.logits),
        ]
    }
}

/// Laps of a stopwatch. In a browser's WebAssembly the standard library has no clock
/// (`Instant::now` panics there), so the laps are not taken and the profile stays at zero: the
/// page times the tokens with its own clock.
struct Clock(Option<Instant>);

impl Clock {
    fn start() -> Clock {
        Clock(now())
    }

    /// Adds the time since the last lap to `to`.
    fn lap(&mut self, to: &mut Duration) {
        if let (Some(then), Some(now)) = (self.0, now()) {
            *to += now - then;
            self.0 = Some(now);
        }
    }
}

/// Which positions' logits a pass returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// the last token's only (generation)
    Last,
    /// every token's (perplexity)
    All,
}

/// RMSNorm of each `w.len()`-wide token of `x`, scaled by `w`: chapter 10's
/// [`RmsNorm`](ch10_language_models::RmsNorm).
pub fn rms_norm(x: &[f32], w: &[f32], eps: f32) -> Vec<f32> {
    let mut out = Vec::with_capacity(x.len());
    for token in x.chunks(w.len()) {
        let mean_square = token.iter().map(|v| v * v).sum::<f32>() / w.len() as f32;
        let rms = (mean_square + eps).sqrt();
        out.extend(token.iter().zip(w).map(|(v, w)| v / rms * w));
    }
    out
}

/// `x · sigmoid(x)`.
fn silu(x: f32) -> f32 {
    x / (1.0 + (-x).exp())
}

impl Decoder {
    /// The weights read per generated token, in bytes: every matrix once.
    pub fn bytes_per_token(&self) -> usize {
        let layer =
            |l: &Layer| [&l.q, &l.k, &l.v, &l.o, &l.gate, &l.up, &l.down].map(Matrix::bytes);
        self.layers.iter().flat_map(layer).sum::<usize>() + self.output().bytes()
    }

    /// The weights each part of [`Profile::parts`] reads per token, in bytes.
    pub fn part_bytes(&self) -> [usize; 5] {
        let sum = |f: &dyn Fn(&Layer) -> usize| self.layers.iter().map(f).sum::<usize>();
        [
            sum(&|l| l.q.bytes() + l.k.bytes() + l.v.bytes()),
            0,
            sum(&|l| l.o.bytes()),
            sum(&|l| l.gate.bytes() + l.up.bytes() + l.down.bytes()),
            self.output().bytes(),
        ]
    }

    /// An empty cache for this model.
    pub fn new_cache(&self, policy: Policy) -> Cache {
        Cache::new(policy, self.layers.len(), self.sizes.kv_heads * self.sizes.head_dim)
    }

    /// Runs `tokens`, which follow those `cache` has seen; their keys and values join it.
    /// Returns `vocab` logits per kept position.
    ///
    /// # Panics
    /// If a token is outside the vocabulary, or a [`Policy::Full`] cache overflows.
    // ANCHOR: forward
    pub fn forward(&self, tokens: &[usize], cache: &mut Cache, keep: Keep) -> Vec<f32> {
        self.forward_timed(tokens, cache, keep, &mut Profile::default())
    }

    /// [`Self::forward`], adding the time of each part to `profile`. The pass runs on one of
    /// rayon's threads, which then shares each product with the others directly; called from
    /// any other thread, every product would wake that thread and put it back to sleep.
    pub fn forward_timed(
        &self,
        tokens: &[usize],
        cache: &mut Cache,
        keep: Keep,
        profile: &mut Profile,
    ) -> Vec<f32> {
        rayon::scope(|_| self.pass(tokens, cache, keep, profile))
    }

    /// The layers, then the logits, of [`Self::forward_timed`].
    fn pass(
        &self,
        tokens: &[usize],
        cache: &mut Cache,
        keep: Keep,
        profile: &mut Profile,
    ) -> Vec<f32> {
        let (s, n) = (self.sizes, tokens.len());
        let start = cache.next_position();
        let slots: Vec<usize> = tokens.iter().map(|_| cache.admit()).collect();
        let mut x: Vec<f32> = tokens
            .iter()
            .flat_map(|&t| {
                assert!(t < s.vocab, "token {t} is outside the vocabulary of {}", s.vocab);
                self.embed.row(t)
            })
            .collect();
        let mut clock = Clock::start();
        let turns = self.rope.tables(start, n, s.head_dim); // the same for every layer
        for (l, layer) in self.layers.iter().enumerate() {
            let h = rms_norm(&x, &layer.attn_norm, self.eps);
            let [mut q, mut k, v] = apply_each(self.isa, [&layer.q, &layer.k, &layer.v], &h, n);
            clock.lap(&mut profile.qkv);
            self.turn(&mut q, &mut k, &turns);
            let mixed = self.attend(l, &q, &k, &v, &slots, start, cache);
            clock.lap(&mut profile.attention);
            for (x, o) in x.iter_mut().zip(layer.o.apply(self.isa, &mixed, n)) {
                *x += o;
            }
            clock.lap(&mut profile.out);
            let h = rms_norm(&x, &layer.ffn_norm, self.eps);
            let [gate, up] = apply_each(self.isa, [&layer.gate, &layer.up], &h, n);
            let gated: Vec<f32> = gate.into_iter().zip(up).map(|(g, u)| silu(g) * u).collect();
            for (x, d) in x.iter_mut().zip(layer.down.apply(self.isa, &gated, n)) {
                *x += d;
            }
            clock.lap(&mut profile.feed_forward);
        }
        let kept = match keep {
            Keep::Last => &x[(n - 1) * s.hidden..],
            Keep::All => &x[..],
        };
        let normed = rms_norm(kept, &self.norm, self.eps);
        let logits = self.output().apply(self.isa, &normed, normed.len() / s.hidden);
        clock.lap(&mut profile.logits);
        logits
    }
    // ANCHOR_END: forward

    /// The output projection: its own, or the embedding's when tied.
    pub fn output(&self) -> &Matrix {
        self.output.as_ref().unwrap_or(&self.embed)
    }

    /// RoPE on every query and key head of the pass's tokens, with their `(cos, sin)` tables.
    fn turn(&self, q: &mut [f32], k: &mut [f32], (cos, sin): &(Vec<f32>, Vec<f32>)) {
        let d = self.sizes.head_dim;
        let turn_heads = |xs: &mut [f32], width: usize| {
            for (t, token) in xs.chunks_mut(width).enumerate() {
                let (cos, sin) = (&cos[t * d..(t + 1) * d], &sin[t * d..(t + 1) * d]);
                for head in token.chunks_mut(d) {
                    for i in 0..d / 2 {
                        let (a, b) = self.rope.layout.pair(i, d);
                        let (xa, xb) = (head[a], head[b]);
                        head[a] = xa * cos[a] - xb * sin[a];
                        head[b] = xb * cos[b] + xa * sin[b];
                    }
                }
            }
        };
        turn_heads(q, self.sizes.hidden);
        turn_heads(k, self.sizes.kv_heads * d);
    }

    // ANCHOR: attend
    /// Each new token's keys and values join the cache in its slot; then its query heads
    /// attend over every slot in use (query head `h` reads key/value head `h / group`).
    #[allow(clippy::too_many_arguments)]
    fn attend(
        &self,
        layer: usize,
        q: &[f32],
        k: &[f32],
        v: &[f32],
        slots: &[usize],
        start: usize,
        cache: &mut Cache,
    ) -> Vec<f32> {
        let s = self.sizes;
        let kv_width = s.kv_heads * s.head_dim;
        let mut out = vec![0f32; q.len()];
        if slots.len() > 1 && slots.iter().enumerate().all(|(t, &slot)| slot == start + t) {
            // a prompt whose slots are its positions: every key and value in, then the tokens
            // shared among the threads, each seeing the slots up to its own
            for (t, &slot) in slots.iter().enumerate() {
                let kv = t * kv_width..(t + 1) * kv_width;
                cache.write(layer, slot, &k[kv.clone()], &v[kv]);
            }
            let seen = cache.layer(layer, start + slots.len());
            attend_prompt(self.isa, s, q, seen, start, &mut out);
            return out;
        }
        for (t, &slot) in slots.iter().enumerate() {
            let kv = t * kv_width..(t + 1) * kv_width;
            cache.write(layer, slot, &k[kv.clone()], &v[kv]);
            let used = (start + t + 1).min(cache.policy().slots());
            let (keys, values) = cache.layer(layer, used);
            let token = t * s.hidden..(t + 1) * s.hidden;
            attend_token(self.isa, s, &q[token.clone()], keys, values, &mut out[token]);
        }
        out
    }
    // ANCHOR_END: attend
}

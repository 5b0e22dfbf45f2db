//! Attention over the cache: every query head against the slots in use, query head `h` reading
//! key/value head `h / group`, on chapter 8's instruction sets. One token ([`attend_token`]): a
//! dot product per key, then the softmax and the weighted sum ([`mix`]), long caches sharing the
//! heads among the threads. A prompt ([`attend_prompt`]): the same for each of its tokens, the
//! tokens shared among the threads.
#![allow(unsafe_code)] // the loops run through chapter 8's `Isa::run`, which needs the CPU checked

use ch08_efficient::fast::kernel::{exp_and_sum, row_max};
use ch08_efficient::fast::lanes::Lanes;
use ch08_efficient::fast::{Isa, OnPath};
use rayon::prelude::*;

use super::kernels::dot_f32;
use super::sizes::Sizes;

/// Keys a token attends over before its heads are shared among the threads; below it, they run
/// on the calling thread, each head's work being small.
const PARALLEL_FROM: usize = 512;

// ANCHOR: attend_token
/// `out` (one token, `heads × head_dim`) = softmax(`q kᵀ / √d`) `v` for every head of `query`,
/// over the `keys` and `values` of the slots in use (`slots × kv_width` each).
pub fn attend_token(
    isa: Isa,
    s: Sizes,
    query: &[f32],
    keys: &[f32],
    values: &[f32],
    out: &mut [f32],
) {
    let used = keys.len() / (s.kv_heads * s.head_dim);
    let head = |(h, out): (usize, &mut [f32])| {
        let query = &query[h * s.head_dim..][..s.head_dim];
        let kv_head = h / (s.heads / s.kv_heads);
        isa.run(OneHead { s, query, kv_head, keys, values, out })
    };
    if used >= PARALLEL_FROM {
        out.par_chunks_mut(s.head_dim).enumerate().for_each(head);
    } else {
        out.chunks_mut(s.head_dim).enumerate().for_each(head);
    }
}
// ANCHOR_END: attend_token

struct OneHead<'a> {
    s: Sizes,
    query: &'a [f32],
    kv_head: usize,
    keys: &'a [f32],
    values: &'a [f32],
    out: &'a mut [f32],
}

impl OnPath for OneHead<'_> {
    type Output = ();

    #[inline(always)]
    unsafe fn run<L: Lanes, const MR: usize>(self) {
        let (d, kv_width) = (self.s.head_dim, self.s.kv_heads * self.s.head_dim);
        let scale = 1.0 / (d as f32).sqrt();
        let used = self.keys.len() / kv_width;
        // plain loops, no closures: a closure would not inherit the path's target features, and
        // the vector operations inside it would not be inlined
        let mut scores = Vec::with_capacity(used);
        for j in 0..used {
            let key = &self.keys[j * kv_width + self.kv_head * d..][..d];
            scores.push(dot_f32::<L>(self.query, key) * scale);
        }
        mix::<L>(&mut scores, self.values, (kv_width, self.kv_head * d), self.out);
    }
}

/// `out` = the rows of `values` (each `width` apart, `at` in) weighted by the softmax of
/// `scores`: chapter 8's vector `exp`, the weights normalised before they are used, each
/// product rounded before it is added (no fused multiply-add), key after key.
///
/// # Safety
/// The CPU must have `L`'s instruction set.
#[inline(always)]
unsafe fn mix<L: Lanes>(
    scores: &mut [f32],
    values: &[f32],
    (width, at): (usize, usize),
    out: &mut [f32],
) {
    let max = row_max::<L>(scores);
    let total = exp_and_sum::<L>(scores, max);
    for w in scores.iter_mut() {
        *w /= total;
    }
    let (d, w) = (out.len(), L::W);
    if d.is_multiple_of(w) && d / w <= 8 {
        // the running sums in registers: up to 8 vectors (a head of 128 on AVX-512)
        let mut acc = [L::splat(0.0); 8];
        for (j, &weight) in scores.iter().enumerate() {
            let (value, weight) = (values.as_ptr().add(j * width + at), L::splat(weight));
            for (k, acc) in acc.iter_mut().take(d / w).enumerate() {
                *acc = L::add(*acc, L::mul(weight, L::load(value.add(k * w))));
            }
        }
        for (k, acc) in acc.iter().take(d / w).enumerate() {
            L::store(out.as_mut_ptr().add(k * w), *acc);
        }
        return;
    }
    out.fill(0.0);
    for (j, &weight) in scores.iter().enumerate() {
        let value = &values[j * width + at..][..d];
        for (o, v) in out.iter_mut().zip(value) {
            *o += weight * v;
        }
    }
}

// ANCHOR: attend_prompt
/// Several new tokens at once (a prompt) whose slots hold positions `0..start + n` in order:
/// each token's heads over the slots up to its own, as [`attend_token`] computes them, the
/// tokens shared among the threads. `queries` and `out` hold `n × heads·head_dim`.
pub fn attend_prompt(
    isa: Isa,
    s: Sizes,
    queries: &[f32],
    (keys, values): (&[f32], &[f32]),
    start: usize,
    out: &mut [f32],
) {
    let (width, kv_width) = (s.heads * s.head_dim, s.kv_heads * s.head_dim);
    let token = |(t, out): (usize, &mut [f32])| {
        let seen = (start + t + 1) * kv_width;
        let query = &queries[t * width..][..width];
        attend_token(isa, s, query, &keys[..seen], &values[..seen], out);
    };
    out.par_chunks_mut(width).enumerate().for_each(token);
}
// ANCHOR_END: attend_prompt

//! One token's attention over the cache: every query head against the slots in use, query head
//! `h` reading key/value head `h / group`. The dot products and the weighted sum run on chapter
//! 8's instruction sets; long caches share the heads among the threads.
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
        let max = row_max::<L>(&scores);
        let total = exp_and_sum::<L>(&mut scores, max); // chapter 8's vector `exp`
        self.out.fill(0.0);
        for (j, &w) in scores.iter().enumerate() {
            let (value, w) = (&self.values[j * kv_width + self.kv_head * d..][..d], w / total);
            for (o, v) in self.out.iter_mut().zip(value) {
                *o += w * v;
            }
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

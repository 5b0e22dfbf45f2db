//! The decoder on slices, one step at a time.

use ch08_efficient::fast::tiled_on;
use ch08_efficient::heads::{dot, softmax_in_place};
use ch08_efficient::{Full, Heads, TILES};
use ch12_real_bert::fast::linear::Then;
use ch12_real_bert::fast::ops::{merge_heads, split_heads};
use rayon::prelude::*;

use super::encoder::{add, normed};
use super::FastWhisper;
use crate::config::{HEADS, HEAD_DIM, TEXT_POSITIONS, VOCAB, WIDTH};

/// A transcript being written on the fast path: each block's keys and values so far (rows of 384,
/// heads side by side) and its cross-attention keys and values.
#[derive(Clone, Debug)]
pub struct FastDecoding<'a> {
    model: &'a FastWhisper,
    keys: Vec<Vec<f32>>,
    values: Vec<Vec<f32>>,
    cross: Vec<(Heads, Heads)>,
}

/// Causal attention of `n` new query rows over every key row so far (`keys`, `values`: rows of
/// 384, the new ones last); query `i` sees the keys up to its own position.
fn attend_cached(q: &[f32], keys: &[f32], values: &[f32]) -> Vec<f32> {
    let (n, m) = (q.len() / WIDTH, keys.len() / WIDTH);
    let scale = 1.0 / (HEAD_DIM as f32).sqrt();
    let mut out = vec![0.0; n * WIDTH];
    let mut scores = vec![0.0f32; m];
    for i in 0..n {
        let seen = m - n + i + 1;
        for h in 0..HEADS {
            let qh = &q[i * WIDTH + h * HEAD_DIM..][..HEAD_DIM];
            for (j, s) in scores[..seen].iter_mut().enumerate() {
                let kh = &keys[j * WIDTH + h * HEAD_DIM..][..HEAD_DIM];
                *s = qh.iter().zip(kh).map(|(a, b)| a * b).sum::<f32>() * scale;
            }
            let max = scores[..seen].iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let mut sum = 0.0;
            scores[..seen].iter_mut().for_each(|s| {
                *s = (*s - max).exp();
                sum += *s;
            });
            let o = &mut out[i * WIDTH + h * HEAD_DIM..][..HEAD_DIM];
            for (j, s) in scores[..seen].iter().enumerate() {
                let vh = &values[j * WIDTH + h * HEAD_DIM..][..HEAD_DIM];
                o.iter_mut().zip(vh).for_each(|(a, b)| *a += s / sum * b);
            }
        }
    }
    out
}

/// Head `h`'s attention weights of the queries `q` over the keys `k` (both split into heads): a
/// row per query, each a softmax over every key, as the tiled kernel weighs them.
fn head_weights(q: &Heads, k: &Heads, h: usize) -> Vec<f32> {
    let scale = 1.0 / (q.d as f32).sqrt();
    let mut out = Vec::with_capacity(q.n * k.n);
    for i in 0..q.n {
        let qi = &q.data[(h * q.n + i) * q.d..][..q.d];
        let mut row: Vec<f32> =
            (0..k.n).map(|j| dot(qi, &k.data[(h * k.n + j) * k.d..][..k.d]) * scale).collect();
        softmax_in_place(&mut row);
        out.extend(row);
    }
    out
}

impl FastWhisper {
    /// A decoding over `audio` (the encoder's output, `1500 × 384`): the cross-attention keys
    /// and values of every block, projected once.
    pub fn start(&self, audio: &[f32]) -> FastDecoding<'_> {
        let cross = (self.decoder.iter())
            .map(|layer| {
                let kv = layer.cross_kv.forward(audio, Then::Nothing); // rows of [k | v]
                (split_heads(&kv, 2, 0, HEADS, HEAD_DIM), split_heads(&kv, 2, 1, HEADS, HEAD_DIM))
            })
            .collect();
        let empty = vec![Vec::new(); self.decoder.len()];
        FastDecoding { model: self, keys: empty.clone(), values: empty, cross }
    }
}

impl FastDecoding<'_> {
    /// How many tokens have been read.
    pub fn len(&self) -> usize {
        self.keys[0].len() / WIDTH
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads `ids` and gives the next token's logits.
    ///
    /// # Panics
    /// Past the decoder's 448 positions.
    pub fn step(&mut self, ids: &[u32]) -> Vec<f32> {
        self.step_watching(ids, &[]).0
    }

    /// [`step`](Self::step), also giving the cross-attention weights of the heads in `watched`
    /// (`(layer, head)`, both counted from 0), in that order: each `ids.len()` rows, one per
    /// token read, over the encoder's positions (what [`Whisper::decode_all`] keeps of every
    /// head, for the alignment heads alone).
    ///
    /// [`Whisper::decode_all`]: crate::Whisper::decode_all
    // ANCHOR: fast_step
    pub fn step_watching(
        &mut self,
        ids: &[u32],
        watched: &[(usize, usize)],
    ) -> (Vec<f32>, Vec<Vec<f32>>) {
        let m = self.model;
        let mut weights = vec![Vec::new(); watched.len()];
        let (start, n) = (self.len(), ids.len());
        assert!(start + n <= TEXT_POSITIONS, "Whisper's decoder has {TEXT_POSITIONS} positions");
        let mut x: Vec<f32> = (ids.iter().enumerate())
            .flat_map(|(i, &id)| {
                let token = &m.tokens[id as usize * WIDTH..][..WIDTH];
                let position = &m.text_positions[(start + i) * WIDTH..][..WIDTH];
                token.iter().zip(position).map(|(a, b)| a + b).collect::<Vec<_>>()
            })
            .collect();
        for (l, layer) in m.decoder.iter().enumerate() {
            let qkv = layer.qkv.forward(&normed(&x, &layer.norm1), Then::Nothing);
            let mut q = Vec::with_capacity(n * WIDTH);
            for row in qkv.chunks_exact(3 * WIDTH) {
                q.extend_from_slice(&row[..WIDTH]);
                self.keys[l].extend_from_slice(&row[WIDTH..2 * WIDTH]);
                self.values[l].extend_from_slice(&row[2 * WIDTH..]);
            }
            let context = attend_cached(&q, &self.keys[l], &self.values[l]);
            add(&mut x, &layer.out.forward(&context, Then::Nothing));
            let q = layer.cross_q.forward(&normed(&x, &layer.norm2), Then::Nothing);
            let (k, v) = &self.cross[l];
            let mut context = Vec::with_capacity(n * WIDTH);
            let q = split_heads(&q, 1, 0, HEADS, HEAD_DIM);
            for (w, &(_, h)) in weights.iter_mut().zip(watched).filter(|(_, p)| p.0 == l) {
                *w = head_weights(&q, k, h);
            }
            merge_heads(&tiled_on(m.isa, &q, k, v, &Full, TILES), &mut context);
            add(&mut x, &layer.cross_out.forward(&context, Then::Nothing));
            let hidden = layer.ffn1.forward(&normed(&x, &layer.norm3), Then::Gelu);
            add(&mut x, &layer.ffn2.forward(&hidden, Then::Nothing));
        }
        let last = normed(&x[(n - 1) * WIDTH..], &m.decoder_norm);
        let parts: Vec<Vec<f32>> =
            m.logits.par_iter().map(|p| p.forward(&last, Then::Nothing)).collect();
        let mut logits = parts.concat();
        logits.truncate(VOCAB);
        (logits, weights)
    }
    // ANCHOR_END: fast_step
}

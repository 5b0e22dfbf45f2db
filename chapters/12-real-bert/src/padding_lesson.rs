//! Chapter 6's lesson on a real model: short texts batched with a long one, with and without the
//! padding mask, each compared with the same text embedded alone.

use dfdx::prelude::*;

use crate::pooling::cosine;
use crate::sentence::{embed_ids, Padding, SentenceEncoder};
use crate::tokenizer::Tokenizer;

/// The texts of the lesson: three short sentences and the paragraph that makes them wait.
pub const TEXTS: [&str; 4] = [
    "Attention is all you need.",
    "Transformers use self-attention.",
    "I like pizza.",
    "Positional encodings tell the model where each token is, since attention itself ignores \
     order. Sinusoidal encodings, learned tables and rotary embeddings are three answers; BERT \
     learns a table of 512 positions, one vector per position, added to the word's vector.",
];

/// One text of the batch.
#[derive(Clone, Debug, PartialEq)]
pub struct PaddingRow {
    pub text: String,
    /// its tokens, `[CLS]` and `[SEP]` included
    pub tokens: usize,
    /// the `[PAD]` tokens added to make it as long as the longest text
    pub padding: usize,
    /// the cosine between its embedding in the batch, with the mask, and alone
    pub masked: f32,
    /// the same without the mask
    pub seen: f32,
    /// without the mask, the share of its tokens' attention that goes to the `[PAD]` keys
    /// (the mean over every layer, head and real token)
    pub on_padding: f32,
}

/// Runs `texts` as one batch twice (with and without the mask) and compares every embedding with
/// the text's own, embedded alone (no padding at all).
pub fn padding_lesson<Dev: Device<f32>>(
    encoder: &SentenceEncoder<Dev>,
    texts: &[&str],
) -> Vec<PaddingRow> {
    let ids: Vec<Vec<usize>> = texts.iter().map(|t| encoder.ids(t)).collect();
    let longest = ids.iter().map(Vec::len).max().unwrap_or(0);
    let pad = encoder.tokenizer.pad_id();
    let run = |padding| embed_ids(&encoder.model, &ids, pad, padding, true);
    let (masked, seen) = (run(Padding::Masked), run(Padding::Seen));
    let on_padding = weight_on_padding(encoder, &ids);
    texts
        .iter()
        .zip(&ids)
        .enumerate()
        .map(|(i, (text, ids))| {
            let alone = &encoder.embed(&[text])[0];
            PaddingRow {
                text: text.to_string(),
                tokens: ids.len(),
                padding: longest - ids.len(),
                masked: cosine(&masked[i], alone),
                seen: cosine(&seen[i], alone),
                on_padding: on_padding[i],
            }
        })
        .collect()
}

/// Without the mask, for each sequence of `ids` in one padded batch: the mean weight its real
/// tokens put on the `[PAD]` keys, over every layer and head. (Pooling still averages the real
/// tokens only; this is how the padding gets into them.)
pub fn weight_on_padding<Dev: Device<f32>>(
    encoder: &SentenceEncoder<Dev>,
    ids: &[Vec<usize>],
) -> Vec<f32> {
    let dev = encoder.model.embeddings.norm.gamma.device().clone();
    let padded = Tokenizer::pad_batch(ids, encoder.tokenizer.pad_id());
    let (batch, seq) = (padded.len(), padded[0].len());
    let out = encoder.model.forward(dev.tensor_from_vec(padded.concat(), (batch, seq)), None);
    let heads = out.weights[0].shape().1.size();
    let weights: Vec<Vec<f32>> = out.weights.iter().map(|w| w.as_vec()).collect();
    (ids.iter().enumerate())
        .map(|(b, real)| {
            let n = real.len();
            let mut sum = 0.0f64;
            for w in &weights {
                for h in 0..heads {
                    for q in 0..n {
                        let row = ((b * heads + h) * seq + q) * seq;
                        sum += w[row + n..row + seq].iter().map(|&x| f64::from(x)).sum::<f64>();
                    }
                }
            }
            (sum / (weights.len() * heads * n) as f64) as f32
        })
        .collect()
}

/// The cosine similarities of the first three texts, pair by pair (0-1, 0-2, 1-2), in the batch
/// without the mask: what a search would have compared.
pub fn unmasked_similarities<Dev: Device<f32>>(
    encoder: &SentenceEncoder<Dev>,
    texts: &[&str],
) -> [f32; 3] {
    let ids: Vec<Vec<usize>> = texts.iter().map(|t| encoder.ids(t)).collect();
    let pad = encoder.tokenizer.pad_id();
    let e = embed_ids(&encoder.model, &ids, pad, Padding::Seen, true);
    [cosine(&e[0], &e[1]), cosine(&e[0], &e[2]), cosine(&e[1], &e[2])]
}

//! Chapter 6's lesson on a real model: short texts batched with a long one, with and without the
//! padding mask, each compared with the same text embedded alone.

use dfdx::prelude::*;

use crate::pooling::cosine;
use crate::sentence::{embed_ids, Padding, SentenceEncoder};

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
            }
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

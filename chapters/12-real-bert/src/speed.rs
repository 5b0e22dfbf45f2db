//! How fast the chapter's encoder embeds text: sentences per second for the first 256 entries of
//! chapter 10's text (6 to 256 tokens each), in batches of 32, sorted by length as
//! sentence-transformers sorts them.

use std::time::Instant;

use dfdx::prelude::*;

use crate::corpus::entries;
use crate::sentence::{Path, SentenceEncoder, BATCH};

/// How many texts one round embeds.
pub const SENTENCES: usize = 256;

/// The texts of a round.
pub fn texts() -> Vec<String> {
    entries().into_iter().take(SENTENCES).collect()
}

/// One round on `path`: the seconds it takes to embed all of `texts` (tokenizing included), after
/// one untimed batch to warm up.
pub fn seconds<Dev: Device<f32>>(
    encoder: &SentenceEncoder<Dev>,
    path: Path,
    texts: &[&str],
) -> f64 {
    let _ = encoder.embed_on(path, &texts[..texts.len().min(BATCH)]);
    let start = Instant::now();
    let _ = encoder.embed_on(path, texts);
    start.elapsed().as_secs_f64()
}

//! Asking the book a question: every paragraph of `book/src` embedded once into an index, the
//! question embedded the same way, and the paragraphs ranked by cosine similarity.

use std::path::{Path, PathBuf};

use dfdx::prelude::*;

use crate::book_index::{book_paragraphs, book_src, fingerprint, Paragraph};
use crate::pooling::cosine;
use crate::sentence::SentenceEncoder;

/// The paragraphs and their embeddings, with the fingerprint of the text they were built from.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Index {
    pub fingerprint: String,
    pub paragraphs: Vec<Paragraph>,
    pub vectors: Vec<Vec<f32>>,
}

/// One paragraph and how close it is to the question.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit<'a> {
    pub score: f32,
    /// the paragraph's place in the index
    pub position: usize,
    pub paragraph: &'a Paragraph,
}

impl Index {
    /// Embeds every paragraph.
    pub fn build<Dev: Device<f32>>(
        encoder: &SentenceEncoder<Dev>,
        paragraphs: Vec<Paragraph>,
    ) -> Self {
        let texts: Vec<&str> = paragraphs.iter().map(|p| p.text.as_str()).collect();
        let vectors = encoder.embed_fast(&texts);
        Index { fingerprint: fingerprint(&paragraphs), paragraphs, vectors }
    }

    /// The `top` paragraphs closest to `query` (an embedding), best first.
    // ANCHOR: rank
    pub fn rank(&self, query: &[f32], top: usize) -> Vec<Hit<'_>> {
        let mut hits: Vec<Hit<'_>> = self
            .paragraphs
            .iter()
            .zip(&self.vectors)
            .enumerate()
            .map(|(position, (paragraph, v))| Hit { score: cosine(query, v), position, paragraph })
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        hits.truncate(top);
        hits
    }
    // ANCHOR_END: rank

    /// The index saved at `path`, if it was built from exactly these paragraphs.
    pub fn read_if_current(path: &Path, paragraphs: &[Paragraph]) -> Option<Self> {
        let text = std::fs::read_to_string(path).ok()?;
        let index: Index = serde_json::from_str(&text).ok()?;
        (index.fingerprint == fingerprint(paragraphs) && index.paragraphs == paragraphs)
            .then_some(index)
    }

    /// Saves the index as JSON, whole or not at all: written beside `path` and renamed over it,
    /// so that a program reading the index while another writes it never sees half of one.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let json = serde_json::to_string(self).map_err(|e| e.to_string())?;
        support::saved::save_bytes(path, json.as_bytes()).map_err(|e| e.to_string())
    }
}

/// Where the book's index is kept: the workspace's `target/` folder (it is rebuilt from the book,
/// never committed).
pub fn index_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/book-index/all-minilm-l6-v2.json")
}

/// The index of the book as it is now: read from [`index_path`] when it matches `book/src`,
/// otherwise built (and saved for next time). `built` is told how many paragraphs were embedded,
/// or 0 when the saved index was current.
pub fn current_index<Dev: Device<f32>>(
    encoder: &SentenceEncoder<Dev>,
    built: impl FnOnce(usize),
) -> Result<Index, String> {
    let paragraphs = book_paragraphs(&book_src())?;
    let path = index_path();
    if let Some(index) = Index::read_if_current(&path, &paragraphs) {
        built(0);
        return Ok(index);
    }
    built(paragraphs.len());
    let index = Index::build(encoder, paragraphs);
    index.write(&path)?;
    Ok(index)
}

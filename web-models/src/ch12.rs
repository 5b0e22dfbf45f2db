//! Chapter 12 in every page: "ask the book". The page sends all-MiniLM-L6-v2's files and the
//! book's index (embedded natively when the book was built, `ch12_real_bert::web_index`); the
//! question is embedded here by the chapter's fast encoder and the paragraphs ranked by the
//! chapter's own [`Index::rank`].

use ch12_real_bert::fast::FastEncoder;
use ch12_real_bert::search::Index;
use ch12_real_bert::{web_index, SentenceEncoder, Tokenizer};
use dfdx::prelude::*;

use crate::bundle::Bundle;

/// Paragraphs the page shows per question.
pub const TOP: usize = 5;
/// The longest question the page takes, in characters.
pub const MAX_CHARS: usize = 1000;

/// The encoder's tokenizer and fast path (chapter 5's blocks are dropped once packed: the page
/// keeps one copy of the weights), and the book's index.
pub struct Asker {
    tokenizer: Tokenizer,
    fast: FastEncoder,
    index: Index,
}

impl Asker {
    /// From the page's bundle: the model's files (`ch12_real_bert::files::FILES`) and the index's
    /// two files ([`web_index::MANIFEST`], [`web_index::VECTORS`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Asker, String> {
        let mut files = Bundle::read(bytes)?;
        let index =
            web_index::read(&files.take(web_index::MANIFEST)?, &files.take(web_index::VECTORS)?)?;
        let encoder = SentenceEncoder::from_files(&Cpu::default(), |name| files.take(name))?;
        let SentenceEncoder { tokenizer, fast, .. } = encoder;
        Ok(Asker { tokenizer, fast, index })
    }

    /// The question's embedding (unit length, as the index's).
    pub fn embed(&self, question: &str) -> Vec<f32> {
        let ids = self.tokenizer.encode(question).ids;
        self.fast.embed_ids(&[ids]).remove(0)
    }

    /// The [`TOP`] paragraphs closest to the question (its code points), as pairs of numbers:
    /// the paragraph's place in the index, and its cosine with the question.
    pub fn ask(&self, values: &[f32]) -> Result<Vec<f32>, String> {
        let question = attention_web::text::from_code_points(values)?;
        if question.trim().is_empty() {
            return Err("type a question first".into());
        }
        if question.chars().count() > MAX_CHARS {
            return Err(format!("a question of at most {MAX_CHARS} characters, please"));
        }
        let hits = self.index.rank(&self.embed(&question), TOP);
        Ok(hits.iter().flat_map(|h| [h.position as f32, h.score]).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bundle_without_the_index_or_the_model_is_refused_by_name() {
        let none = Asker::from_bytes(&Bundle::write(&[])).err().unwrap();
        assert_eq!(none, "the page sent no file book-index.json");
        let index = Bundle::write(&[("book-index.json", b"{}"), ("book-index.f32", b"")]);
        let err = Asker::from_bytes(&index).err().unwrap();
        assert!(err.starts_with("book-index.json: not the book's index"), "{err}");
    }
}

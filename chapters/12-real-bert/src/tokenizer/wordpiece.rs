//! The vocabulary and WordPiece: Hugging Face's `models::WordPiece` (transformers'
//! `WordpieceTokenizer`). A word is cut into the longest vocabulary entries that cover it, left
//! to right; every piece after the first carries the prefix `##`, which says "glued to the
//! previous piece", so `una` (a word) and `##una` (inside a word) are different tokens.

use std::collections::HashMap;
use std::path::Path;

/// The token that replaces a word WordPiece cannot cover.
pub const UNK: &str = "[UNK]";
/// The token that starts every sequence; its final vector is BERT's sentence summary.
pub const CLS: &str = "[CLS]";
/// The token that ends every sequence (and separates the two texts of a pair).
pub const SEP: &str = "[SEP]";
/// The token that fills a short sequence of a batch up to the longest one.
pub const PAD: &str = "[PAD]";
/// The token that pre-training hid words behind.
pub const MASK: &str = "[MASK]";
/// BERT's special tokens. Hugging Face's `tokenizer.json` declares them as added tokens, so they
/// are recognised in raw text before normalisation (see `special.rs`). A vocabulary must have all.
pub const SPECIAL_TOKENS: [&str; 5] = [PAD, UNK, CLS, SEP, MASK];
/// The prefix of a piece that continues a word.
pub const CONTINUING_PREFIX: &str = "##";
/// Longer words (in characters, not bytes) become [`UNK`] without a search.
pub const MAX_INPUT_CHARS_PER_WORD: usize = 100;

/// A WordPiece vocabulary: token <-> id, where the id is the token's line number in `vocab.txt`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vocab {
    tokens: Vec<String>,
    ids: HashMap<String, usize>,
}

impl Vocab {
    /// Reads `vocab.txt`; an error names the path and the problem.
    pub fn from_file(path: &Path) -> Result<Vocab, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Vocab::from_lines(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// One token per line, the id being the line's number from 0. Trailing whitespace (a `\r`
    /// of Windows line ends) is not part of a token, as in Hugging Face's reader. Unlike theirs,
    /// which lets a later line win, a token that appears twice is an error: it would leave an id
    /// that can never be produced. A missing special token is an error too.
    pub fn from_lines(text: &str) -> Result<Vocab, String> {
        let mut vocab = Vocab { tokens: Vec::new(), ids: HashMap::new() };
        for (line, token) in text.lines().enumerate() {
            let token = token.trim_end();
            if let Some(first) = vocab.ids.insert(token.to_string(), line) {
                return Err(format!(
                    "the token {token:?} is on line {} and again on line {}: a vocabulary lists \
                     each token once",
                    first + 1,
                    line + 1
                ));
            }
            vocab.tokens.push(token.to_string());
        }
        let missing: Vec<&str> =
            SPECIAL_TOKENS.into_iter().filter(|t| !vocab.ids.contains_key(*t)).collect();
        if !missing.is_empty() {
            return Err(format!(
                "the vocabulary ({} tokens) lacks the special token(s) {}: is this a BERT \
                 vocab.txt?",
                vocab.len(),
                missing.join(" ")
            ));
        }
        Ok(vocab)
    }

    /// The id of a token, if the vocabulary has it.
    pub fn id(&self, token: &str) -> Option<usize> {
        self.ids.get(token).copied()
    }

    /// The token of an id, if the id is in range.
    pub fn token(&self, id: usize) -> Option<&str> {
        self.tokens.get(id).map(String::as_str)
    }

    /// The id of a token that [`Vocab::from_lines`] checked is there (a special token).
    pub(crate) fn special(&self, token: &str) -> usize {
        self.ids[token]
    }

    /// The number of tokens (30,522 for the uncased BERT vocabulary).
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Never true for a checked vocabulary (it has the special tokens); here for clippy's sake.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }
}

// ANCHOR: wordpiece
/// The ids of one word's pieces: greedy longest match first. From the start of the word, take
/// the longest prefix that is in the vocabulary, then continue from its end with `##` in front,
/// until the word is used up. If some position has no match at all, or the word has more than
/// 100 characters, the whole word is one [`UNK`] (not just the part that failed).
pub fn word_pieces(word: &str, vocab: &Vocab) -> Vec<usize> {
    let unknown = vec![vocab.special(UNK)];
    if word.chars().count() > MAX_INPUT_CHARS_PER_WORD {
        return unknown;
    }
    let mut ids = Vec::new();
    let mut start = 0; // byte offset of the next piece
    while start < word.len() {
        // the longest piece from `start` that the vocabulary has: shorten one character at a time
        let mut end = word.len();
        let id = loop {
            let piece = &word[start..end];
            let entry =
                if start == 0 { piece.to_string() } else { format!("{CONTINUING_PREFIX}{piece}") };
            if let Some(id) = vocab.id(&entry) {
                break id;
            }
            match piece.char_indices().next_back() {
                Some((last, _)) if last > 0 => end = start + last,
                _ => return unknown, // not even one character matches: the whole word is [UNK]
            }
        };
        ids.push(id);
        start = end;
    }
    ids
}
// ANCHOR_END: wordpiece

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab() -> Vocab {
        Vocab::from_lines("[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nun\n##aff\n##able\naff\n##a")
            .unwrap()
    }

    #[test]
    fn longest_match_first() {
        let v = vocab();
        assert_eq!(word_pieces("unaffable", &v), [5, 6, 7]);
        assert_eq!(word_pieces("affa", &v), [8, 9]);
        assert_eq!(word_pieces("unx", &v), [1]); // `x` and `##x` are missing: the whole word
    }

    #[test]
    fn lines_and_ids() {
        let v = Vocab::from_lines("[PAD]\r\n[UNK]\r\n[CLS]\r\n[SEP]\r\n[MASK]\r\n").unwrap();
        assert_eq!((v.len(), v.id("[MASK]"), v.token(2)), (5, Some(4), Some("[CLS]")));
        assert_eq!(v.token(5), None);
    }
}

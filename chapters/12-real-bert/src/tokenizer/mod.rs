//! BERT's tokenizer, as all-MiniLM-L6-v2 uses it: equal, token for token, to Hugging Face's
//! fast tokenizer built from the model's `tokenizer.json` (`tests/tokenizer_parity.rs`).
//!
//! Text goes through five steps, each in its own file:
//!
//! 1. [`special`]: `[CLS]`, `[SEP]`, `[MASK]`, ... typed in the text are cut out first;
//! 2. [`normalize`]: clean control characters and whitespace, space out CJK ideographs, strip
//!    accents, lowercase (`BertNormalizer`);
//! 3. [`pretokenize`]: split into words at whitespace and punctuation (`BertPreTokenizer`);
//! 4. [`wordpiece`]: cut each word into vocabulary pieces, greedy longest match (`WordPiece`);
//! 5. here: `[CLS]` in front, `[SEP]` at the end (`TemplateProcessing`), truncated to
//!    [`MAX_TOKENS`] as sentence-transformers does.

pub mod normalize;
pub mod pretokenize;
pub mod special;
pub mod wordpiece;

use std::path::Path;

use special::{split_special, Segment};
pub use wordpiece::Vocab;
use wordpiece::{word_pieces, CLS, PAD, SEP, SPECIAL_TOKENS, UNK};

/// The longest sequence all-MiniLM-L6-v2 is given, `[CLS]` and `[SEP]` included:
/// sentence-transformers' `max_seq_length` (the model's position table has 512 rows).
pub const MAX_TOKENS: usize = 256;

/// One tokenized text: `[CLS]`, the pieces, `[SEP]`. Hugging Face: `Encoding` (`ids`, `tokens`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoding {
    /// The vocabulary ids, what the model reads.
    pub ids: Vec<usize>,
    /// The same tokens as text, for reading: `["[CLS]", "una", "##ffa", "##ble", "[SEP]"]`.
    pub tokens: Vec<String>,
}

impl AsRef<[usize]> for Encoding {
    fn as_ref(&self) -> &[usize] {
        &self.ids
    }
}

/// BERT's uncased WordPiece tokenizer: a vocabulary and the longest sequence to produce.
#[derive(Clone, Debug)]
pub struct Tokenizer {
    vocab: Vocab,
    max_len: usize,
}

impl Tokenizer {
    /// The tokenizer of a `vocab.txt`, truncating at [`MAX_TOKENS`]. The error names the path
    /// and the problem; a caller that knows where the file comes from adds how to fetch it.
    pub fn from_vocab_file(path: &Path) -> Result<Tokenizer, String> {
        Vocab::from_file(path).map(Tokenizer::from_vocab)
    }

    /// The tokenizer of a vocabulary, truncating at [`MAX_TOKENS`].
    pub fn from_vocab(vocab: Vocab) -> Tokenizer {
        Tokenizer { vocab, max_len: MAX_TOKENS }
    }

    /// The same tokenizer truncating at `max_len` tokens, `[CLS]` and `[SEP]` included.
    ///
    /// # Panics
    /// If `max_len < 2`: there must be room for `[CLS]` and `[SEP]`.
    pub fn with_max_len(self, max_len: usize) -> Tokenizer {
        assert!(
            max_len >= 2,
            "max_len {max_len} leaves no room for [CLS] and [SEP]: use 2 or more"
        );
        Tokenizer { max_len, ..self }
    }

    /// The longest sequence [`Tokenizer::encode`] returns.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// `[CLS]`, the word pieces of `text`, `[SEP]`. A text with more than `max_len - 2` pieces
    /// keeps its first ones (possibly cutting a word between two pieces), as Hugging Face's
    /// truncation does. Never panics: any string gives at least `[CLS] [SEP]`.
    pub fn encode(&self, text: &str) -> Encoding {
        let budget = self.max_len - 2;
        let mut ids = vec![self.cls_id()];
        for segment in split_special(text, &self.specials()) {
            if ids.len() > budget {
                break; // already full: the rest would be cut anyway
            }
            match segment {
                Segment::Special(id) => ids.push(id),
                Segment::Text(part) => {
                    for word in pretokenize::pre_tokenize(&normalize::normalize(part)) {
                        ids.extend(word_pieces(word, &self.vocab));
                        if ids.len() > budget {
                            break;
                        }
                    }
                }
            }
        }
        ids.truncate(1 + budget);
        ids.push(self.sep_id());
        let tokens =
            ids.iter().map(|&id| self.vocab.token(id).unwrap_or(UNK).to_string()).collect();
        Encoding { ids, tokens }
    }

    /// The words of `text` before WordPiece: normalised and split, special tokens kept whole.
    /// `"Héllo, World!"` gives `["hello", ",", "world", "!"]`.
    pub fn words(&self, text: &str) -> Vec<String> {
        let mut words = Vec::new();
        for segment in split_special(text, &self.specials()) {
            match segment {
                Segment::Special(id) => words.push(self.vocab.token(id).unwrap_or(UNK).to_string()),
                Segment::Text(part) => {
                    let normalized = normalize::normalize(part);
                    words.extend(
                        pretokenize::pre_tokenize(&normalized).into_iter().map(String::from),
                    );
                }
            }
        }
        words
    }

    /// The pieces of one word (already normalised): `"unaffable"` gives
    /// `["una", "##ffa", "##ble"]` with the uncased BERT vocabulary.
    pub fn pieces(&self, word: &str) -> Vec<String> {
        word_pieces(word, &self.vocab)
            .into_iter()
            .map(|id| self.vocab.token(id).unwrap_or(UNK).to_string())
            .collect()
    }

    /// Pads every sequence of a batch with `pad_id` up to the longest one, on the right, as
    /// Hugging Face's `padding=True` does. The model must then ignore the padding: chapter 6's
    /// mask. Takes [`Encoding`]s or plain id vectors.
    pub fn pad_batch<S: AsRef<[usize]>>(batch: &[S], pad_id: usize) -> Vec<Vec<usize>> {
        let longest = batch.iter().map(|s| s.as_ref().len()).max().unwrap_or(0);
        batch
            .iter()
            .map(|s| {
                let mut ids = s.as_ref().to_vec();
                ids.resize(longest, pad_id);
                ids
            })
            .collect()
    }

    /// The id of a token, if the vocabulary has it.
    pub fn id(&self, token: &str) -> Option<usize> {
        self.vocab.id(token)
    }

    /// The token of an id, if the id is in range.
    pub fn token(&self, id: usize) -> Option<&str> {
        self.vocab.token(id)
    }

    /// The vocabulary's size: 30,522 for all-MiniLM-L6-v2.
    pub fn vocab_len(&self) -> usize {
        self.vocab.len()
    }

    /// `[CLS]`'s id (101 in the uncased BERT vocabulary).
    pub fn cls_id(&self) -> usize {
        self.vocab.special(CLS)
    }

    /// `[SEP]`'s id (102).
    pub fn sep_id(&self) -> usize {
        self.vocab.special(SEP)
    }

    /// `[PAD]`'s id (0).
    pub fn pad_id(&self) -> usize {
        self.vocab.special(PAD)
    }

    /// `[UNK]`'s id (100).
    pub fn unk_id(&self) -> usize {
        self.vocab.special(UNK)
    }

    /// The special tokens with their ids, for [`split_special`].
    fn specials(&self) -> Vec<(&'static str, usize)> {
        SPECIAL_TOKENS.iter().map(|&t| (t, self.vocab.special(t))).collect()
    }
}

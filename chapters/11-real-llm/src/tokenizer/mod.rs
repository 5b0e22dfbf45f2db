//! SmolLM2's tokenizer, from the GGUF file's vocabulary and merges: GPT-2's byte-level BPE.
//!
//! Encoding a text: (1) the special tokens (`<|im_start|>`, `<|im_end|>`, ...; the file marks
//! them as control tokens) are found first and kept whole; (2) the text between them is cut into
//! pieces by the pre-tokenizer the file names (`pre.rs`: for SmolLM2, every digit alone, then
//! GPT-2's pattern into words, punctuation and whitespace runs); (3) each piece's bytes are written
//! in the byte-level alphabet (`bytes.rs`); (4) BPE joins neighbouring symbols, the pair with the
//! lowest merge rank first, until no pair of the piece is a merge; (5) each symbol is looked up in
//! the vocabulary. Decoding maps the symbols' characters back to bytes.

mod bytes;
mod pre;

pub use pre::{PreTokenizer, PreTokenizerKind, GPT2_PATTERN};

use crate::gguf::{Gguf, Value};
use std::collections::HashMap;

/// A byte-level BPE tokenizer.
#[derive(Debug, Clone)]
pub struct Tokenizer {
    /// id -> symbol (in the byte-level alphabet for ordinary tokens)
    tokens: Vec<String>,
    ids: HashMap<String, u32>,
    /// merge (left, right) -> its rank: lower merges first
    ranks: HashMap<(String, String), usize>,
    /// the control tokens, longest first, so that a longer one wins where two start together
    specials: Vec<(String, u32)>,
    pre: PreTokenizer,
    byte_to_char: [char; 256],
    char_to_byte: HashMap<char, u8>,
}

impl Tokenizer {
    /// The tokenizer of a GGUF file (`tokenizer.ggml.model` must be `gpt2`).
    pub fn from_gguf(file: &Gguf) -> Result<Tokenizer, String> {
        let strings = |key: &str| -> Result<Vec<String>, String> {
            let items = file
                .get(key)
                .and_then(Value::as_array)
                .ok_or(format!("metadata {key:?} is missing"))?;
            items
                .iter()
                .map(|v| v.as_str().map(str::to_owned).ok_or(format!("{key:?} holds a non-string")))
                .collect()
        };
        match file.get("tokenizer.ggml.model").and_then(Value::as_str) {
            Some("gpt2") => {}
            other => {
                return Err(format!(
                    "tokenizer.ggml.model is {other:?}: this tokenizer reads \"gpt2\""
                ))
            }
        }
        let pre = match file.get("tokenizer.ggml.pre") {
            None => return Err("metadata \"tokenizer.ggml.pre\" is missing".to_owned()),
            Some(v) => v.as_str().ok_or("tokenizer.ggml.pre is not a string")?,
        };
        let pre = PreTokenizerKind::from_name(pre)?;
        let tokens = strings("tokenizer.ggml.tokens")?;
        let merges = strings("tokenizer.ggml.merges")?;
        let types = file
            .get("tokenizer.ggml.token_type")
            .and_then(Value::as_array)
            .ok_or("metadata tokenizer.ggml.token_type is missing")?;
        if types.len() != tokens.len() {
            return Err(format!("{} token types for {} tokens", types.len(), tokens.len()));
        }
        // control tokens (type 3) are matched whole before anything else
        let specials = (types.iter().enumerate())
            .filter(|(_, t)| t.as_u64() == Some(3))
            .map(|(i, _)| i as u32)
            .collect();
        Tokenizer::from_parts(tokens, &merges, specials, pre)
    }

    /// A tokenizer from its parts, however a file stores them: the symbols by id, the merges
    /// (`"left right"`, in rank order), the ids of the special tokens (matched whole in a text,
    /// decoded as written) and the pre-tokenizer. Chapter 13 reads Whisper's from a
    /// `tokenizer.json`.
    pub fn from_parts(
        tokens: Vec<String>,
        merges: &[String],
        special_ids: Vec<u32>,
        pre: PreTokenizerKind,
    ) -> Result<Tokenizer, String> {
        let ids: HashMap<String, u32> =
            tokens.iter().enumerate().map(|(i, t)| (t.clone(), i as u32)).collect();
        let ranks = merges
            .iter()
            .enumerate()
            .map(|(rank, m)| {
                let (a, b) =
                    m.split_once(' ').ok_or(format!("merge {rank} ({m:?}) is not two symbols"))?;
                Ok(((a.to_owned(), b.to_owned()), rank))
            })
            .collect::<Result<_, String>>()?;
        let mut specials = Vec::with_capacity(special_ids.len());
        for id in special_ids {
            let symbol =
                tokens.get(id as usize).ok_or(format!("special token {id} has no symbol"))?;
            specials.push((symbol.clone(), id));
        }
        // the longest first, so that a longer one wins where two start together
        specials.sort_by_key(|(s, _)| std::cmp::Reverse(s.len()));
        let pre = PreTokenizer::new(pre);
        let byte_to_char = bytes::byte_to_char();
        let char_to_byte = byte_to_char.iter().enumerate().map(|(b, &c)| (c, b as u8)).collect();
        Ok(Tokenizer { tokens, ids, ranks, specials, pre, byte_to_char, char_to_byte })
    }

    /// The number of tokens.
    pub fn vocab_size(&self) -> usize {
        self.tokens.len()
    }

    /// The pre-tokenizer the file names.
    pub fn pre_tokenizer(&self) -> &PreTokenizer {
        &self.pre
    }

    /// The same vocabulary and merges with another pre-tokenizer: to see what the cut changes
    /// (GPT-2's pattern alone is what `transformers` rebuilds from a GGUF file).
    pub fn with_pre_tokenizer(self, kind: PreTokenizerKind) -> Tokenizer {
        Tokenizer { pre: PreTokenizer::new(kind), ..self }
    }

    /// The id of a token's symbol, such as `<|im_end|>`.
    pub fn id(&self, symbol: &str) -> Option<u32> {
        self.ids.get(symbol).copied()
    }

    /// The token ids of `text`; special tokens written in the text are kept whole.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            // the earliest special token in the rest, the longest where two start together
            let next = self
                .specials
                .iter()
                .filter_map(|(s, id)| rest.find(s.as_str()).map(|at| (at, s.len(), *id)))
                .min_by_key(|&(at, len, _)| (at, std::cmp::Reverse(len)));
            let (plain, special) = match next {
                Some((at, len, id)) => (&rest[..at], Some((len, id, at))),
                None => (rest, None),
            };
            self.encode_plain(plain, &mut out);
            match special {
                Some((len, id, at)) => {
                    out.push(id);
                    rest = &rest[at + len..];
                }
                None => rest = "",
            }
        }
        out
    }

    /// Each token of `ids` as text on its own. A token that holds only part of a character's
    /// UTF-8 bytes (an emoji is often two or three tokens) shows U+FFFD, `�`, where the part is.
    pub fn pieces(&self, ids: &[u32]) -> Vec<String> {
        ids.iter().map(|&id| self.decode(&[id])).collect()
    }

    /// Text without special tokens: cut by the pre-tokenizer, then BPE on each piece.
    fn encode_plain(&self, text: &str, out: &mut Vec<u32>) {
        for piece in self.pre.split(text) {
            let symbols: String = piece.bytes().map(|b| self.byte_to_char[b as usize]).collect();
            for symbol in self.bpe(&symbols) {
                out.push(self.ids[&symbol]);
            }
        }
    }

    /// Byte-pair encoding of one piece: start from its characters and repeatedly join the
    /// neighbouring pair of the lowest merge rank.
    // ANCHOR: bpe
    fn bpe(&self, piece: &str) -> Vec<String> {
        let mut symbols: Vec<String> = piece.chars().map(String::from).collect();
        loop {
            let best = symbols
                .windows(2)
                .enumerate()
                .filter_map(|(i, pair)| {
                    self.ranks.get(&(pair[0].clone(), pair[1].clone())).map(|&rank| (rank, i))
                })
                .min();
            let Some((_, i)) = best else { return symbols };
            let joined = symbols[i].clone() + &symbols[i + 1];
            symbols.splice(i..i + 2, [joined]);
        }
    }
    // ANCHOR_END: bpe

    /// The text of `ids`: each token's symbols mapped back to bytes (special tokens as written),
    /// then read as UTF-8 (a sequence cut inside a character shows U+FFFD there).
    pub fn decode(&self, ids: &[u32]) -> String {
        let mut bytes = Vec::new();
        for &id in ids {
            let symbol = &self.tokens[id as usize];
            if self.specials.iter().any(|(_, s)| *s == id) {
                bytes.extend(symbol.as_bytes());
            } else {
                for c in symbol.chars() {
                    match self.char_to_byte.get(&c) {
                        Some(&b) => bytes.push(b),
                        // not in the byte-level alphabet (no such token in SmolLM2): as written
                        None => bytes.extend(c.to_string().as_bytes()),
                    }
                }
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

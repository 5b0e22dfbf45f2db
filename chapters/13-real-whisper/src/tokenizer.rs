//! Whisper's tokenizer: GPT-2's byte-level BPE (chapter 11's [`Tokenizer`]), read from the model's
//! `tokenizer.json`, and the special tokens that steer the decoder.
//!
//! The file holds GPT-2's 50,257 symbols and 50,000 merges, and 107 added tokens (`<|endoftext|>`,
//! `<|startoftranscript|>`, the 99 languages of the multilingual models, `<|transcribe|>`,
//! `<|notimestamps|>` and the like). The 1,501 timestamp tokens `<|0.00|>` to `<|30.00|>` come after
//! them (ids 50,363 to 51,863) and are not in the file: they are made here, 20 ms apart.

use ch11_real_llm::tokenizer::{PreTokenizerKind, Tokenizer};
use serde::Deserialize;

use crate::config::VOCAB;

#[derive(Deserialize)]
struct File {
    added_tokens: Vec<Added>,
    model: Bpe,
}

#[derive(Deserialize)]
struct Added {
    id: u32,
    content: String,
}

#[derive(Deserialize)]
struct Bpe {
    #[serde(rename = "type")]
    kind: String,
    vocab: std::collections::HashMap<String, u32>,
    merges: Vec<String>,
}

/// The ids of the tokens the decoder is steered with, looked up by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Specials {
    /// `<|endoftext|>`: the transcript is finished
    pub end: u32,
    /// `<|startoftranscript|>`: the first token of every prompt
    pub start: u32,
    /// `<|notimestamps|>`: text only, no timestamp tokens
    pub no_timestamps: u32,
    /// `<|0.00|>`: the first timestamp token
    pub timestamp_begin: u32,
}

/// Whisper's tokenizer and its special ids.
#[derive(Debug, Clone)]
pub struct WhisperTokenizer {
    pub bpe: Tokenizer,
    pub specials: Specials,
}

impl WhisperTokenizer {
    /// Reads `tokenizer.json`'s text.
    pub fn parse(text: &str) -> Result<WhisperTokenizer, String> {
        let file: File = serde_json::from_str(text).map_err(|e| format!("tokenizer.json: {e}"))?;
        if file.model.kind != "BPE" {
            return Err(format!("tokenizer.json: a {:?} model, not BPE", file.model.kind));
        }
        let mut tokens = vec![None; VOCAB];
        let entries = file
            .model
            .vocab
            .into_iter()
            .chain((file.added_tokens.iter()).map(|a| (a.content.clone(), a.id)));
        for (symbol, id) in entries {
            let slot = tokens.get_mut(id as usize).ok_or(format!("token id {id} past {VOCAB}"))?;
            *slot = Some(symbol);
        }
        let timestamp_begin = 1 + file.added_tokens.iter().map(|a| a.id).max().unwrap_or(0);
        for (i, slot) in tokens.iter_mut().enumerate().skip(timestamp_begin as usize) {
            *slot = Some(format!("<|{:.2}|>", (i - timestamp_begin as usize) as f64 * 0.02));
        }
        let tokens = (tokens.into_iter().enumerate())
            .map(|(id, t)| t.ok_or(format!("tokenizer.json: no token has id {id}")))
            .collect::<Result<Vec<_>, _>>()?;
        let specials: Vec<u32> =
            (file.added_tokens.iter().map(|a| a.id)).chain(timestamp_begin..VOCAB as u32).collect();
        let bpe =
            Tokenizer::from_parts(tokens, &file.model.merges, specials, PreTokenizerKind::Gpt2)?;
        let id = |name: &str| bpe.id(name).ok_or(format!("tokenizer.json: no {name} token"));
        let specials = Specials {
            end: id("<|endoftext|>")?,
            start: id("<|startoftranscript|>")?,
            no_timestamps: id("<|notimestamps|>")?,
            timestamp_begin,
        };
        Ok(WhisperTokenizer { bpe, specials })
    }

    /// The text of the tokens before the end of the text, special tokens left out.
    pub fn text(&self, ids: &[u32]) -> String {
        let words: Vec<u32> = ids.iter().copied().filter(|&id| id < self.specials.end).collect();
        self.bpe.decode(&words)
    }
}

//! Texts in, sentence embeddings out: the tokenizer, the encoder, mean pooling and
//! normalisation, in batches, as sentence-transformers' `SentenceTransformer.encode` runs them.

use ch06_masks::{encoder_mask, real_tokens_allowed};
use ch08_efficient::fast::Isa;
use dfdx::prelude::*;

use crate::bert::{Bert, MiniLm};
use crate::config::{BertConfig, SentenceConfig, MINILM};
use crate::fast::FastEncoder;
use crate::files::ModelFiles;
use crate::load::Entries;
use crate::pooling::{mean_pool, normalize};
use crate::tokenizer::{Tokenizer, Vocab};

/// Texts per forward pass: sentence-transformers' default `batch_size`.
pub const BATCH: usize = 32;

/// Whether the encoder hides padding from attention: chapter 6's lesson, on a real model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Padding {
    /// chapter 6's padding mask: no token attends to `[PAD]`
    Masked,
    /// no mask at all: every token attends to the padding too (the mistake)
    Seen,
}

/// One sentence embedding per sequence of `ids` (each `[CLS] ... [SEP]`, any lengths), run as one
/// padded batch: `(batch, d_model)`, each row of length 1 when `unit` is set.
// ANCHOR: embed_ids
pub fn embed_ids<
    const V: usize,
    const M: usize,
    const H: usize,
    const DK: usize,
    const F: usize,
    const L: usize,
    const P: usize,
    const T: usize,
    Dev: Device<f32>,
>(
    bert: &Bert<V, M, H, DK, F, L, P, T, f32, Dev>,
    ids: &[Vec<usize>],
    pad: usize,
    padding: Padding,
    unit: bool,
) -> Vec<Vec<f32>> {
    let dev = bert.embeddings.norm.gamma.device().clone();
    let padded = Tokenizer::pad_batch(ids, pad); // every sequence as long as the longest
    let (batch, seq) = (padded.len(), padded[0].len());
    let flat = dev.tensor_from_vec(padded.concat(), (batch, seq));
    let mask = encoder_mask(&dev, &padded, pad, Const::<H>); // chapter 6: (batch, H, seq, seq)
    let out = bert.forward(flat, (padding == Padding::Masked).then_some(&mask));
    let pooled = mean_pool(out.hidden, real_tokens_allowed(&dev, &padded, pad));
    let rows = if unit { normalize(pooled) } else { pooled };
    rows.as_vec().chunks(M).map(<[f32]>::to_vec).collect()
}
// ANCHOR_END: embed_ids

/// Which implementation embeds: chapter 5's blocks on dfdx, or the same weights on the fast path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// [`MiniLm`]: chapter 5's encoder and chapter 6's mask, on the dfdx device
    Dfdx,
    /// [`FastEncoder`]: no padding, chapter 8's kernels, on the CPU
    Fast,
}

/// all-MiniLM-L6-v2 with its tokenizer and sentence-transformers' settings.
pub struct SentenceEncoder<Dev: Device<f32>> {
    pub tokenizer: Tokenizer,
    pub model: MiniLm<Dev>,
    /// the same weights, packed for the fast path
    pub fast: FastEncoder,
    pub sentence: SentenceConfig,
}

impl<Dev: Device<f32>> SentenceEncoder<Dev> {
    /// Loads everything from the model's folder, checking the configuration against the
    /// compiled sizes first.
    pub fn load(dev: &Dev, files: &ModelFiles) -> Result<Self, String> {
        Self::from_files(dev, |name| {
            let path = files.path(name);
            std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
        })
    }

    /// [`load`](Self::load), with each file's bytes given by `bytes` from its name in the
    /// model's folder ([`crate::files::FILES`]), each asked for once: from a folder, or the
    /// files a page fetched.
    pub fn from_files(
        dev: &Dev,
        mut bytes: impl FnMut(&str) -> Result<Vec<u8>, String>,
    ) -> Result<Self, String> {
        let mut text = |name: &str| {
            String::from_utf8(bytes(name)?).map_err(|e| format!("{name}: not UTF-8 text ({e})"))
        };
        let config = BertConfig::parse(&text("config.json")?)?;
        config.check(MINILM)?;
        let names = ["sentence_bert_config.json", "1_Pooling/config.json", "modules.json"];
        let texts = names.map(&mut text);
        let sentence = SentenceConfig::parse(|name| {
            let at = names.iter().position(|n| *n == name).ok_or(format!("no file {name}"))?;
            texts[at].clone()
        })?;
        let vocab =
            Vocab::from_lines(&text("vocab.txt")?).map_err(|e| format!("vocab.txt: {e}"))?;
        let tokenizer = Tokenizer::from_vocab(vocab).with_max_len(sentence.max_seq_length);
        let weights = Entries::from_bytes(&bytes("model.safetensors")?, "model.safetensors")?;
        let model = MiniLm::from_entries(dev, weights, &config)?;
        let fast = FastEncoder::new(&model, Isa::chosen());
        Ok(SentenceEncoder { tokenizer, model, fast, sentence })
    }

    /// For the examples: the encoder from the cache, or the error on stderr and exit status 2.
    pub fn load_or_exit(dev: &Dev) -> Self {
        support::cli::or_exit(Self::load(dev, &ModelFiles::locate_or_exit()))
    }

    /// The token ids of a text, `[CLS] ... [SEP]`, truncated at `max_seq_length`.
    pub fn ids(&self, text: &str) -> Vec<usize> {
        self.tokenizer.encode(text).ids
    }

    /// One embedding per text, in the texts' order, by chapter 5's blocks. The texts are sorted
    /// by length and run [`BATCH`] at a time, so each batch pads little, as sentence-transformers
    /// does.
    pub fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        self.embed_with(texts, Padding::Masked)
    }

    /// [`embed`](Self::embed) on the fast path: the same numbers to float32 rounding, sooner.
    pub fn embed_fast(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        self.embed_on(Path::Fast, texts)
    }

    /// [`embed`](Self::embed) on either path.
    pub fn embed_on(&self, path: Path, texts: &[&str]) -> Vec<Vec<f32>> {
        match path {
            Path::Dfdx => self.embed_with(texts, Padding::Masked),
            Path::Fast => self.in_batches(texts, |ids| self.fast.embed_ids(ids)),
        }
    }

    /// [`embed`](Self::embed), with or without the padding mask.
    pub fn embed_with(&self, texts: &[&str], padding: Padding) -> Vec<Vec<f32>> {
        let pad = self.tokenizer.pad_id();
        let unit = self.sentence.normalize;
        self.in_batches(texts, |ids| embed_ids(&self.model, ids, pad, padding, unit))
    }

    /// Runs `batch` on the texts' ids, [`BATCH`] at a time, longest first; the results come back
    /// in the texts' order.
    fn in_batches(
        &self,
        texts: &[&str],
        batch: impl Fn(&[Vec<usize>]) -> Vec<Vec<f32>>,
    ) -> Vec<Vec<f32>> {
        let ids: Vec<Vec<usize>> = texts.iter().map(|t| self.ids(t)).collect();
        let mut order: Vec<usize> = (0..ids.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(ids[i].len()));
        let mut out = vec![Vec::new(); ids.len()];
        for chunk in order.chunks(BATCH) {
            let chunk_ids: Vec<Vec<usize>> = chunk.iter().map(|&i| ids[i].clone()).collect();
            let rows = batch(&chunk_ids);
            for (&i, row) in chunk.iter().zip(rows) {
                out[i] = row;
            }
        }
        out
    }
}

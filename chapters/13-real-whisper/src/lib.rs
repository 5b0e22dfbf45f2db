//! # Chapter 13 — a real encoder–decoder: Whisper tiny.en
//!
//! Whisper (Radford et al. 2022) is the encoder–decoder of chapters 5, 6 and 9 trained on 680,000
//! hours of speech: the encoder hears a log-mel spectrogram, the decoder writes the text, and
//! cross-attention joins them. This crate runs tiny.en, from CTranslate2's `model.bin`, on the
//! book's own parts: chapter 5's pre-norm blocks, chapter 3's heads, chapter 1's attention,
//! chapter 10's KV cache and chapter 11's byte-level BPE.
//!
//! * [`wav`]: 16 kHz mono 16-bit WAV files, read and checked;
//! * [`recording`]: a recording at another rate resampled to 16 kHz, and checked;
//! * [`mel`]: the log-mel spectrogram, from scratch;
//! * [`ct2`]: CTranslate2's model file, bounded against hostile input;
//! * [`model`]: [`Whisper`]: the encoder, the decoder, the weights;
//! * [`tokenizer`]: GPT-2's BPE from `tokenizer.json`, and the special tokens;
//! * [`decode`]: greedy decoding with Whisper's rules;
//! * [`timing`]: when each word was said, from the alignment heads' cross-attention;
//! * [`transcribe`]: [`Transcriber`], samples in, text out;
//! * [`fast`]: the same model on plain slices with chapter 8's and chapter 12's kernels, for speed.

pub mod clips;
pub mod config;
pub mod ct2;
pub mod decode;
pub mod fast;
#[cfg(not(target_arch = "wasm32"))]
// figures are drawn natively; `web-models/` builds without plotting
pub mod figures;
pub mod files;
pub mod heads;
pub mod mel;
pub mod model;
pub mod recording;
pub mod speed;
pub mod speed_table;
pub mod timing;
pub mod tokenizer;
pub mod transcribe;
pub mod wav;

pub use config::WhisperConfig;
pub use files::ModelFiles;
pub use model::Whisper;
pub use tokenizer::WhisperTokenizer;
pub use transcribe::{Transcriber, Transcript};

//! # Chapter 12 — a real encoder: all-MiniLM-L6-v2
//!
//! The most used sentence-embedding model is a 6-layer BERT. This crate runs it on the book's own
//! parts: chapter 5's post-norm encoder blocks (with GELU), chapter 6's padding mask, and a
//! WordPiece tokenizer read from the model's `vocab.txt`. Its embeddings equal
//! sentence-transformers' within 1e-6 in every coordinate.
//!
//! * [`bert`]: [`Bert`] (embeddings and chapter 5's encoder), [`MiniLm`], [`TinyBert`];
//! * [`load`]: the safetensors file by Hugging Face's names;
//! * [`config`]: the configuration files, checked against the compiled sizes;
//! * [`files`]: where the model's files are ([`ModelFiles`]);
//! * [`tokenizer`]: BERT's basic tokenizer and WordPiece;
//! * [`pooling`]: mean pooling, normalisation, cosine similarity;
//! * [`sentence`]: [`SentenceEncoder`], texts in, embeddings out;
//! * [`book_index`], [`search`]: this book's paragraphs, embedded, ranked against a question;
//! * [`web_index`]: the same index as the online book ships it, for asking in the page;
//! * [`cli`]: the examples' command lines.

pub mod bert;
pub mod book_index;
pub mod cli;
pub mod config;
pub mod corpus;
pub mod fast;
#[cfg(not(target_arch = "wasm32"))] // figures are drawn natively; `web/` builds without plotting
pub mod figures;
pub mod files;
pub mod load;
pub mod looks;
pub mod padding_lesson;
pub mod pooling;
pub mod search;
pub mod sentence;
pub mod speed;
pub mod speed_table;
pub mod tokenizer;
pub mod web_index;

pub use bert::{Bert, BertOutput, Embeddings, MiniLm, TinyBert};
pub use config::{BertConfig, SentenceConfig, MINILM};
pub use files::ModelFiles;
pub use pooling::{cosine, cosine_matrix, mean_pool, normalize};
pub use sentence::{embed_ids, Padding, SentenceEncoder, BATCH};
pub use tokenizer::Tokenizer;

//! The published models the book's pages run, compiled to WebAssembly (`cargo xtask wasm`): a
//! module of its own, which only the pages' Web Worker (`book/src/web/models-worker.js`) loads, so
//! that a page with widgets downloads only the widgets' module (`web/`). It exports that module's
//! seam too (this crate builds on `attention_web::abi`): the page's buffers, the calls, the
//! errors.
//!
//! * [`ch11`]: chatting with SmolLM2-135M-Instruct in chapter 11's page, token by token.
//! * [`ch12`]: "ask the book" on every page: all-MiniLM-L6-v2 embeds the question, and the book's
//!   index (embedded when the book was built) is ranked against it.
//! * [`ch13`]: Whisper tiny.en in chapter 13's page: a clip or the reader's voice, transcribed, each
//!   word timed, the spectrogram and the alignment drawn.
//! * [`bundle`]: a model's files, fetched by the page and handed over in one buffer.
//! * [`lanes`]: chapters 8 and 11's vector code on each instruction set the module has, for the
//!   browser check (WebAssembly's SIMD128 against the portable path).
//! * [`abi`]: this module's exports.

pub mod abi;
pub mod bundle;
pub mod ch11;
pub mod ch12;
pub mod ch13;
pub mod lanes;

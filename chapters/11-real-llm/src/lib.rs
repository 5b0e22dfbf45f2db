//! Chapter 11: A real language model: SmolLM2 from its GGUF file.

pub mod chat;
pub mod cli;
pub mod decode;
#[cfg(not(target_arch = "wasm32"))] // figures are drawn natively; `web/` builds without plotting
pub mod figures;
pub mod gguf;
pub mod heads;
pub mod model_file;
pub mod perplexity;
pub mod smollm2;
pub mod speed;
pub mod speed_table;
pub mod streaming;
pub mod tokenizer;

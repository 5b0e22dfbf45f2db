//! ch11-real-llm's integration tests, in one binary (one link of dfdx instead of one per file).
//! `cargo test -p ch11-real-llm` runs them all; `cargo test -p ch11-real-llm MODULE::` runs one file's.

mod cache_cost;
mod decode;
mod decode_real;
mod dequantize;
mod figures;
mod gguf_hostile;
mod gguf_memory;
mod gguf_reader;
mod gguf_structured;
mod head_roles;
mod hf_fixture;
mod layout;
mod parity;
mod real_model;
mod speed_page;
mod speed_table;
mod tokenizer;
mod worked_examples;

//! The model file and what is built from it, loaded once per test binary and shared by the tests
//! that need it (chapter 10's model is about 0.5 GB in `f32`).

use std::sync::OnceLock;

use ch11_real_llm::decode::{Decoder, Weights};
use ch11_real_llm::gguf::Gguf;
use ch11_real_llm::model_file;
use ch11_real_llm::smollm2::{self, SmolLm2};
use ch11_real_llm::tokenizer::Tokenizer;
use support::Dev;

/// The parsed file.
pub fn file() -> &'static Gguf {
    static FILE: OnceLock<Gguf> = OnceLock::new();
    FILE.get_or_init(|| Gguf::parse(model_file::read().unwrap()).unwrap())
}

/// Its tokenizer.
pub fn tokenizer() -> &'static Tokenizer {
    static TOKENIZER: OnceLock<Tokenizer> = OnceLock::new();
    TOKENIZER.get_or_init(|| Tokenizer::from_gguf(file()).unwrap())
}

fn load_model() -> SmolLm2<Dev> {
    smollm2::from_gguf(file(), &Dev::default()).unwrap()
}

/// SmolLM2 on chapter 10's model, as published.
#[cfg(not(feature = "cuda"))]
pub fn model() -> &'static SmolLm2<Dev> {
    static MODEL: OnceLock<SmolLm2<Dev>> = OnceLock::new();
    MODEL.get_or_init(load_model)
}

/// SmolLM2 on chapter 10's model, as published: on the GPU each test loads its own, since dfdx's
/// CUDA device cannot be shared between the test threads (it is not `Sync`).
#[cfg(feature = "cuda")]
pub fn model() -> &'static SmolLm2<Dev> {
    Box::leak(Box::new(load_model()))
}

/// The decode path on the file's quantized blocks.
pub fn quantized() -> &'static Decoder {
    static DECODER: OnceLock<Decoder> = OnceLock::new();
    DECODER.get_or_init(|| Decoder::from_gguf(file(), Weights::Quantized).unwrap())
}

//! all-MiniLM-L6-v2 on chapter 5's blocks, loaded once per test binary and shared by the tests
//! that need it; and the committed fixtures they compare with.

use ch12_real_bert::{ModelFiles, SentenceEncoder};
use serde::Deserialize;
use support::Dev;

fn load() -> SentenceEncoder<Dev> {
    let files = ModelFiles::locate().unwrap_or_else(|e| panic!("{e}"));
    SentenceEncoder::load(&Dev::default(), &files).unwrap_or_else(|e| panic!("{e}"))
}

/// The model with its tokenizer, as published.
#[cfg(not(feature = "cuda"))]
pub fn encoder() -> &'static SentenceEncoder<Dev> {
    static ENCODER: std::sync::OnceLock<SentenceEncoder<Dev>> = std::sync::OnceLock::new();
    ENCODER.get_or_init(load)
}

/// The model with its tokenizer, as published: on the GPU each test loads its own, since dfdx's
/// CUDA device cannot be shared between the test threads (it is not `Sync`).
#[cfg(feature = "cuda")]
pub fn encoder() -> &'static SentenceEncoder<Dev> {
    Box::leak(Box::new(load()))
}

/// One sentence of `fixtures/embeddings.json`, as sentence-transformers embedded it alone.
#[derive(Deserialize)]
pub struct Embedded {
    pub text: String,
    pub ids: Vec<usize>,
    pub embedding: Vec<f32>,
}

#[derive(Deserialize)]
struct Fixture {
    max_seq_length: usize,
    sentences: Vec<Embedded>,
}

/// The fixture sentences (`fixtures/make_embedding_fixture.py` made them).
pub fn fixture() -> Vec<Embedded> {
    let text = include_str!("../fixtures/embeddings.json");
    let fixture: Fixture = serde_json::from_str(text).expect("fixtures/embeddings.json");
    assert_eq!(fixture.max_seq_length, 256);
    fixture.sentences
}

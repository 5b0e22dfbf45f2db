//! The tokenizer against Hugging Face's, loaded from the same GGUF file, token for token on a
//! corpus of prose, code, numbers, accents, scripts, emoji, special tokens and whitespace runs
//! (`fixtures/tokenizer_corpus.json`, written by `parity/tokenizer_corpus.py`).

use ch11_real_llm::tokenizer::Tokenizer;

use crate::real_model;

fn tokenizer() -> &'static Tokenizer {
    real_model::tokenizer()
}

#[test]
#[ignore = "needs SmolLM2's GGUF file: cargo xtask models"]
fn the_corpus_tokenizes_as_hugging_face_does() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("../fixtures/tokenizer_corpus.json")).unwrap();
    let tok = tokenizer();
    let texts = fixture["texts"].as_array().unwrap();
    let mut tokens = 0;
    for t in texts {
        let text = t["text"].as_str().unwrap();
        let want: Vec<u32> =
            t["ids"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect();
        assert_eq!(tok.encode(text), want, "{text:?}");
        assert_eq!(tok.decode(&want), text, "decoding {text:?}");
        tokens += want.len();
    }
    assert_eq!((texts.len(), tok.vocab_size()), (20, 49152));
    assert!(tokens > 500, "{tokens}");
    assert_eq!((tok.id("<|im_start|>"), tok.id("<|im_end|>")), (Some(1), Some(2)));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

    /// Any Unicode text comes back from its tokens unchanged.
    #[test]
    #[ignore = "needs SmolLM2's GGUF file: cargo xtask models"]
    fn decoding_gives_back_any_text(text in "\\PC{0,40}|[ \\t\\n]{0,8}[a-z0-9]{0,8}") {
        let tok = tokenizer();
        let back = tok.decode(&tok.encode(&text));
        proptest::prop_assert_eq!(back, text);
    }
}

/// The text the page tokenizes for speed (`--example tokenizer_speed`): chapter 10's whole text.
#[test]
fn chapter_10s_text_is_the_pages_length() {
    assert_eq!(ch10_language_models::char_model::chars::TEXT.chars().count(), 357_767);
}

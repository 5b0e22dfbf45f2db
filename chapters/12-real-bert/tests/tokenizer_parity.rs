//! The tokenizer against Hugging Face's, token for token, on the committed corpus of
//! `fixtures/tokenizer.json` (written by `fixtures/make_tokenizer_fixture.py` from the
//! `tokenizers` library, transformers' `AutoTokenizer` and sentence-transformers, which agree).

use std::path::PathBuf;

use ch12_real_bert::tokenizer::{Tokenizer, MAX_TOKENS};
use serde::Deserialize;

#[derive(Deserialize)]
struct Fixture {
    tokenizers: String,
    transformers: String,
    max_len: usize,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    text: String,
    ids: Vec<usize>,
    tokens: Vec<String>,
    untruncated_len: usize,
}

fn fixture() -> Fixture {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/tokenizer.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A file of all-MiniLM-L6-v2 in the cache that `cargo xtask models` fills.
fn model_file(name: &str) -> PathBuf {
    support::models::folder("all-minilm-l6-v2").join(name)
}

fn tokenizer() -> Tokenizer {
    let path = model_file("vocab.txt");
    Tokenizer::from_vocab_file(&path)
        .unwrap_or_else(|e| panic!("{e}; `cargo xtask models` fetches it"))
}

#[test]
fn the_fixture_is_well_formed() {
    let f = fixture();
    assert_eq!(f.max_len, MAX_TOKENS);
    assert!(!f.tokenizers.is_empty() && !f.transformers.is_empty());
    assert_eq!(f.cases.len(), 93, "the page says how many texts the fixture holds");
    let mut names: Vec<&str> = f.cases.iter().map(|c| c.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), f.cases.len(), "case names must be unique");
    for c in &f.cases {
        assert_eq!(c.ids.len(), c.tokens.len(), "{}", c.name);
        assert!(c.ids.len() <= MAX_TOKENS && c.ids.len() == c.untruncated_len.min(MAX_TOKENS));
        assert_eq!((c.tokens[0].as_str(), c.tokens.last().unwrap().as_str()), ("[CLS]", "[SEP]"));
    }
    assert!(f.cases.iter().any(|c| c.untruncated_len > MAX_TOKENS), "no text is truncated");
}

/// The first difference between two token lists, with a little context, for the failure message.
fn first_difference(name: &str, text: &str, expected: &[String], got: &[String]) -> String {
    let at =
        expected.iter().zip(got).position(|(e, g)| e != g).unwrap_or(expected.len().min(got.len()));
    let window = |t: &[String]| t[at.saturating_sub(3)..(at + 3).min(t.len())].join(" ");
    format!(
        "{name} {text:?}: first difference at token {at}\n  Hugging Face: ... {}\n  here:         ... {}\n  \
         (lengths {} and {})",
        window(expected),
        window(got),
        expected.len(),
        got.len()
    )
}

#[test]
#[ignore = "needs all-MiniLM-L6-v2's files: cargo xtask models"]
fn parity_with_hugging_face_tokenizer() {
    let tok = tokenizer();
    let unlimited = tok.clone().with_max_len(usize::MAX);
    let f = fixture();
    let mut failures = Vec::new();
    for c in &f.cases {
        let enc = tok.encode(&c.text);
        if enc.ids != c.ids || enc.tokens != c.tokens {
            failures.push(first_difference(&c.name, &c.text, &c.tokens, &enc.tokens));
        } else if unlimited.encode(&c.text).ids.len() != c.untruncated_len {
            failures.push(format!("{}: untruncated length differs", c.name));
        }
    }
    let tokens: usize = f.cases.iter().map(|c| c.ids.len()).sum();
    assert!(
        failures.is_empty(),
        "{} of {} texts differ from tokenizers {} / transformers {}; the first:\n{}",
        failures.len(),
        f.cases.len(),
        f.tokenizers,
        f.transformers,
        failures[0]
    );
    println!("{} texts, {tokens} tokens: all equal to Hugging Face's", f.cases.len());
}

#[test]
#[ignore = "needs all-MiniLM-L6-v2's files: cargo xtask models"]
fn vocab_txt_equals_the_vocab_of_tokenizer_json() {
    let tok = tokenizer();
    let path = model_file("tokenizer.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let vocab = json["model"]["vocab"].as_object().expect("model.vocab in tokenizer.json");
    assert_eq!((vocab.len(), tok.vocab_len()), (30_522, 30_522));
    for (token, id) in vocab {
        let id = id.as_u64().unwrap() as usize;
        assert_eq!((tok.id(token), tok.token(id)), (Some(id), Some(token.as_str())), "{token:?}");
    }
    // the special tokens, and the settings this tokenizer implements
    for added in json["added_tokens"].as_array().unwrap() {
        let (token, id) = (added["content"].as_str().unwrap(), added["id"].as_u64().unwrap());
        assert_eq!(tok.id(token), Some(id as usize), "{token}");
        assert_eq!(
            (added["special"].as_bool(), added["normalized"].as_bool()),
            (Some(true), Some(false))
        );
    }
    let settings = serde_json::json!({
        "normalizer": { "type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
                        "strip_accents": null, "lowercase": true },
        "pre_tokenizer": { "type": "BertPreTokenizer" },
        "model": { "type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                   "max_input_chars_per_word": 100 },
    });
    for (key, expected) in settings.as_object().unwrap() {
        for (field, value) in expected.as_object().unwrap() {
            assert_eq!(&json[key][field], value, "{key}.{field} in {}", path.display());
        }
    }
    assert_eq!((tok.cls_id(), tok.sep_id(), tok.pad_id(), tok.unk_id()), (101, 102, 0, 100));
}

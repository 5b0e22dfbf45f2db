//! The tokenizer's rules on a vocabulary of a few lines, without the model's files: longest
//! match first, `[UNK]`, punctuation, accents, CJK, control characters, whitespace, special
//! tokens in the text, truncation, padding, and the errors for bad vocabularies.

use std::path::PathBuf;

use ch12_real_bert::tokenizer::{Encoding, Tokenizer, Vocab, MAX_TOKENS};
use proptest::prelude::*;

const TINY: &str =
    "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nthe\nun\n##aff\n##able\naff\n,\n.\n!\n?\n'\n\
                    [\n]\nmask\nhello\nworld\ndon\nt\ncafe\nnaive\n中\n文\na\n##a\nж\n##ж\n";

fn tiny() -> Tokenizer {
    Tokenizer::from_vocab(Vocab::from_lines(TINY).unwrap())
}

fn tokens(tok: &Tokenizer, text: &str) -> Vec<String> {
    tok.encode(text).tokens
}

#[test]
fn greedy_longest_match_first() {
    let tok = tiny();
    assert_eq!(tok.pieces("unaffable"), ["un", "##aff", "##able"]);
    assert_eq!(tok.pieces("affable"), ["aff", "##able"]);
    assert_eq!(tokens(&tok, "the unaffable"), ["[CLS]", "the", "un", "##aff", "##able", "[SEP]"]);
}

#[test]
fn a_word_with_an_unmatchable_part_is_one_unk() {
    let tok = tiny();
    assert_eq!(tok.pieces("unaffablex"), ["[UNK]"]); // not `un ##aff ##able [UNK]`
    assert_eq!(tokens(&tok, "the zebra"), ["[CLS]", "the", "[UNK]", "[SEP]"]);
}

#[test]
fn a_word_over_100_characters_is_one_unk() {
    let tok = tiny();
    assert_eq!(tok.pieces(&"a".repeat(100)).len(), 100); // `a ##a ##a ...`
    assert_eq!(tok.pieces(&"a".repeat(101)), ["[UNK]"]);
    // the limit counts characters: 100 two-byte letters are 200 bytes and still allowed
    assert_eq!(tok.pieces(&"ж".repeat(100)).len(), 100);
    assert_eq!(tok.pieces(&"ж".repeat(101)), ["[UNK]"]);
}

#[test]
fn punctuation_is_split_off_and_whitespace_dropped() {
    let tok = tiny();
    assert_eq!(tok.words("hello, world!?"), ["hello", ",", "world", "!", "?"]);
    assert_eq!(tok.words("don't"), ["don", "'", "t"]);
    assert_eq!(tokens(&tok, "don't"), ["[CLS]", "don", "'", "t", "[SEP]"]);
}

#[test]
fn accents_are_stripped_and_case_folded() {
    let tok = tiny();
    assert_eq!(tok.words("Héllo CAFÉ Naïve"), ["hello", "cafe", "naive"]);
    assert_eq!(tokens(&tok, "Héllo"), ["[CLS]", "hello", "[SEP]"]);
}

#[test]
fn cjk_ideographs_are_words_of_their_own() {
    let tok = tiny();
    assert_eq!(tok.words("中文"), ["中", "文"]);
    assert_eq!(tokens(&tok, "hello中文!"), ["[CLS]", "hello", "中", "文", "!", "[SEP]"]);
}

#[test]
fn control_characters_are_dropped() {
    let tok = tiny();
    assert_eq!(tok.words("hel\u{0}lo wor\u{200B}ld\u{7}\u{FEFF}\u{FFFD}"), ["hello", "world"]);
    assert!(tok.words("\u{0}\u{1}\u{200B}").is_empty());
}

#[test]
fn every_kind_of_whitespace_separates_words() {
    let tok = tiny();
    let text = "a\tthe\nhello\r\nworld\u{A0}cafe\u{3000}naive\u{2028}t";
    assert_eq!(tok.words(text), ["a", "the", "hello", "world", "cafe", "naive", "t"]);
    // vertical tab, form feed and NEL are control characters first: they join the words
    assert_eq!(tok.words("the\u{B}the\u{C}the\u{85}the"), ["thethethethe"]);
}

#[test]
fn special_tokens_in_the_text_are_kept_whole() {
    let tok = tiny();
    let expected = ["[CLS]", "the", "[MASK]", ".", "[SEP]"];
    assert_eq!(tokens(&tok, "the [MASK]."), expected);
    assert_eq!(tokens(&tok, "the[MASK]."), expected);
    // only the exact spelling: lowercase is ordinary text
    assert_eq!(tokens(&tok, "[mask]"), ["[CLS]", "[", "mask", "]", "[SEP]"]);
    assert_eq!(tok.words("a[SEP]b"), ["a", "[SEP]", "b"]);
}

#[test]
fn the_empty_text_is_cls_sep() {
    let tok = tiny();
    for text in ["", "   ", "\t\n", "\u{0}"] {
        assert_eq!(
            tok.encode(text),
            Encoding { ids: vec![2, 3], tokens: vec!["[CLS]".into(), "[SEP]".into()] }
        );
    }
}

#[test]
fn truncation_keeps_cls_first_and_sep_last() {
    let tok = tiny().with_max_len(5);
    assert_eq!(tokens(&tok, "the the the the the"), ["[CLS]", "the", "the", "the", "[SEP]"]);
    // the cut may fall inside a word, between two of its pieces, as in Hugging Face
    let tok = tiny().with_max_len(4);
    assert_eq!(tokens(&tok, "unaffable the"), ["[CLS]", "un", "##aff", "[SEP]"]);
    assert_eq!(tiny().with_max_len(2).encode("the the").ids, [2, 3]);
    assert_eq!(tiny().max_len(), MAX_TOKENS);
    let long = "the ".repeat(1000);
    let enc = tiny().encode(&long);
    assert_eq!((enc.ids.len(), enc.ids[0], enc.ids[MAX_TOKENS - 1]), (MAX_TOKENS, 2, 3));
}

#[test]
#[should_panic(expected = "no room for [CLS] and [SEP]")]
fn a_max_len_below_two_is_refused() {
    let _ = tiny().with_max_len(1);
}

#[test]
fn pad_batch_pads_to_the_longest_on_the_right() {
    let batch = vec![vec![2, 5, 3], vec![2, 3], vec![2, 5, 5, 5, 3]];
    let padded = Tokenizer::pad_batch(&batch, 0);
    assert_eq!(padded, [vec![2, 5, 3, 0, 0], vec![2, 3, 0, 0, 0], vec![2, 5, 5, 5, 3]]);
    let tok = tiny();
    let encodings = [tok.encode("the the"), tok.encode("")];
    assert_eq!(Tokenizer::pad_batch(&encodings, tok.pad_id()), [[2, 5, 5, 3], [2, 3, 0, 0]]);
    assert!(Tokenizer::pad_batch::<Vec<usize>>(&[], 0).is_empty());
}

#[test]
fn ids_and_tokens_look_up_both_ways() {
    let tok = tiny();
    assert_eq!((tok.pad_id(), tok.cls_id(), tok.sep_id(), tok.unk_id()), (0, 2, 3, 1));
    assert_eq!((tok.id("##aff"), tok.id("zebra")), (Some(7), None));
    assert_eq!((tok.token(8), tok.token(10_000)), (Some("##able"), None));
    assert_eq!(tok.vocab_len(), TINY.lines().count());
}

#[test]
fn a_repeated_token_is_an_error_naming_both_lines() {
    let err = Vocab::from_lines("[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nthe\nthe\n").unwrap_err();
    assert!(err.contains("\"the\" is on line 6 and again on line 7"), "{err}");
}

#[test]
fn a_missing_special_token_is_an_error_naming_it() {
    let err = Vocab::from_lines("[PAD]\n[UNK]\n[SEP]\nthe\n").unwrap_err();
    assert!(err.contains("lacks the special token(s) [CLS] [MASK]"), "{err}");
    assert!(Vocab::from_lines("").unwrap_err().contains("(0 tokens)"));
}

/// A file in the temporary folder, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, bytes: &[u8]) -> TempFile {
        let path = std::env::temp_dir().join(format!("ch12-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn bad_vocab_files_are_errors_naming_the_path() {
    let missing = std::env::temp_dir().join("ch12-no-such-folder/vocab.txt");
    let err = Tokenizer::from_vocab_file(&missing).unwrap_err();
    assert!(err.starts_with(&missing.display().to_string()), "{err}");

    let not_utf8 = TempFile::new("not-utf8.txt", b"[PAD]\n\xff\xfe\n");
    let err = Tokenizer::from_vocab_file(&not_utf8.0).unwrap_err();
    assert!(err.starts_with(&not_utf8.0.display().to_string()), "{err}");

    let duplicate = TempFile::new("duplicate.txt", b"[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n[PAD]\n");
    let err = Tokenizer::from_vocab_file(&duplicate.0).unwrap_err();
    assert!(err.starts_with(&duplicate.0.display().to_string()), "{err}");
    assert!(err.contains("line 1 and again on line 6"), "{err}");

    let good = TempFile::new("good.txt", TINY.as_bytes());
    assert_eq!(Tokenizer::from_vocab_file(&good.0).unwrap().vocab_len(), tiny().vocab_len());
}

proptest! {
    #[test]
    fn any_text_encodes_within_max_len(text in any::<String>(), max_len in 2usize..12) {
        let tok = tiny().with_max_len(max_len);
        let enc = tok.encode(&text);
        prop_assert!(enc.ids.len() >= 2 && enc.ids.len() <= max_len);
        prop_assert_eq!(enc.ids[0], tok.cls_id());
        prop_assert_eq!(*enc.ids.last().unwrap(), tok.sep_id());
        let looked_up: Vec<&str> = enc.ids.iter().map(|&id| tok.token(id).unwrap()).collect();
        prop_assert_eq!(looked_up, enc.tokens.iter().map(String::as_str).collect::<Vec<_>>());
    }

    #[test]
    fn words_of_mixed_scripts_never_panic(
        text in "[a-zA-Z0-9 .,!?'\\[\\]éüñ中文한국ж\\t\\n\u{0}\u{200B}\u{301}]{0,40}",
    ) {
        let tok = tiny();
        let enc = tok.encode(&text);
        prop_assert!(enc.ids.len() <= MAX_TOKENS);
        // every word the tokenizer sees is non-empty and free of whitespace
        for word in tok.words(&text) {
            prop_assert!(!word.is_empty() && !word.chars().any(char::is_whitespace));
        }
    }
}

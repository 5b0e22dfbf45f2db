//! Cutting normalised text into words: Hugging Face's `BertPreTokenizer` (the second half of
//! transformers' `BasicTokenizer`). Whitespace separates words and is dropped; every punctuation
//! character is a word of its own, so `don't` is three words (`don`, `'`, `t`) and `?!` two.
//! WordPiece then never has to learn that `dog.` and `dog` are the same word.

use unicode_categories::UnicodeCategories;

/// Punctuation as BERT sees it: every ASCII character that is not a letter, digit, space or
/// control (so `$`, `+`, `^` and `` ` `` count, although Unicode calls them symbols), and every
/// character of a Unicode punctuation category (P*, pre-Unicode-10 tables, as in Hugging Face's
/// `is_bert_punc`). Other symbols (`€`, `±`, emoji) are not punctuation and stay in their word.
pub fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || c.is_punctuation()
}

/// The words of normalised text, in order: split at whitespace (removed) and around every
/// punctuation character (kept, alone). `"hello, world!"` gives `["hello", ",", "world", "!"]`.
pub fn pre_tokenize(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let mut start = 0; // byte offset where the current word began
    for (i, c) in text.char_indices() {
        let end = i + c.len_utf8();
        if c.is_whitespace() {
            push_nonempty(&mut words, &text[start..i]);
            start = end;
        } else if is_punctuation(c) {
            push_nonempty(&mut words, &text[start..i]);
            words.push(&text[i..end]);
            start = end;
        }
    }
    push_nonempty(&mut words, &text[start..]);
    words
}

fn push_nonempty<'a>(words: &mut Vec<&'a str>, word: &'a str) {
    if !word.is_empty() {
        words.push(word);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_is_dropped_and_punctuation_isolated() {
        assert_eq!(pre_tokenize("  hello,  world!? "), ["hello", ",", "world", "!", "?"]);
        assert_eq!(pre_tokenize("don't"), ["don", "'", "t"]);
        assert_eq!(pre_tokenize("x+=1;"), ["x", "+", "=", "1", ";"]);
        assert_eq!(pre_tokenize(""), Vec::<&str>::new());
        assert_eq!(pre_tokenize("   "), Vec::<&str>::new());
    }

    #[test]
    fn unicode_punctuation_splits_but_symbols_do_not() {
        assert_eq!(pre_tokenize("«oui»—non…"), ["«", "oui", "»", "—", "non", "…"]);
        assert_eq!(pre_tokenize("€4 ±2"), ["€4", "±2"]);
        // U+2E4E is punctuation since Unicode 12, after the tables Hugging Face uses
        assert_eq!(pre_tokenize("a\u{2E4E}b"), ["a\u{2E4E}b"]);
    }
}

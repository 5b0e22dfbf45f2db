//! BERT's text normalisation, before any splitting: Hugging Face `tokenizers`' `BertNormalizer`
//! with the settings of an uncased model (`clean_text`, `handle_chinese_chars`, `strip_accents`
//! and `lowercase` all on), which is transformers' `BasicTokenizer` in the Python version.
//!
//! The uncased vocabulary has no capitals and no accents, so the text must lose them before it
//! is looked up: `Café` has to become `cafe`. Four steps, in Hugging Face's order:
//!
//! 1. **clean**: drop NUL, U+FFFD and "other" characters (general categories Cc, Cf and Co:
//!    control codes, zero-width and direction marks, private use); every whitespace character
//!    becomes a plain space;
//! 2. **CJK**: a space on each side of every CJK ideograph, so each one becomes a word;
//! 3. **strip accents**: Unicode NFD splits `é` into `e` + U+0301, then the nonspacing marks
//!    (category Mn) are dropped;
//! 4. **lowercase**, one character at a time.
//!
//! The categories come from `unicode_categories`, the crate Hugging Face uses. Its tables predate
//! Unicode 10 (2017: U+0D00, added then, is unassigned in them) and its "other" leaves out Cn
//! (unassigned code points), so a character assigned or recategorised since then is treated as
//! an old table has it, exactly as the reference treats it (the parity fixture,
//! `fixtures/tokenizer.json`, has three such texts, with characters of Unicode 10, 11, 13 and 14).

use unicode_categories::UnicodeCategories;
use unicode_normalization::UnicodeNormalization;

/// Whitespace as BERT sees it: Rust's `char::is_whitespace` (the Unicode `White_Space`
/// property), which already includes tab, newline and carriage return.
///
/// The cleaning step tests [`is_control`] first: U+000B, U+000C and U+0085 are whitespace but
/// also control characters (Cc), so they are dropped rather than turned into spaces, and the
/// words on either side are joined. Hugging Face does the same.
pub fn is_whitespace(c: char) -> bool {
    c.is_whitespace()
}

/// A character the cleaning step drops: categories Cc, Cf and Co (pre-Unicode-10 tables), except tab,
/// newline and carriage return, which separate words.
pub fn is_control(c: char) -> bool {
    match c {
        '\t' | '\n' | '\r' => false,
        _ => c.is_other_control() || c.is_other_format() || c.is_other_private_use(),
    }
}

/// A CJK ideograph: the CJK Unified Ideographs blocks and their extensions A to E, and the
/// compatibility ideographs. Chinese is written without spaces, so BERT makes every ideograph a
/// word of its own. Hangul, hiragana and katakana are not in these blocks: Korean and Japanese
/// kana are split like any other script.
pub fn is_cjk_ideograph(c: char) -> bool {
    matches!(
        c as u32,
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
}

// ANCHOR: basic
/// BERT's normalisation of an uncased model: `"Héllo\tWORLD!"` becomes `"hello world!"`.
///
/// Hugging Face: `BertNormalizer { clean_text: true, handle_chinese_chars: true,
/// strip_accents: None (follows lowercase), lowercase: true }`.
pub fn normalize(text: &str) -> String {
    let mut spaced = String::with_capacity(text.len());
    for c in text.chars() {
        // 1. clean: drop control and format characters, every kind of whitespace becomes ' '
        if c == '\0' || c == '\u{FFFD}' || is_control(c) {
            continue;
        }
        let c = if is_whitespace(c) { ' ' } else { c };
        // 2. every CJK ideograph becomes a word of its own
        if is_cjk_ideograph(c) {
            spaced.extend([' ', c, ' ']);
        } else {
            spaced.push(c);
        }
    }
    spaced
        .nfd() // 3. strip accents: 'é' -> 'e' + U+0301 ...
        .filter(|c| !c.is_mark_nonspacing()) // ... and the mark (Mn) goes
        .flat_map(char::to_lowercase) // 4. lowercase, character by character
        .collect()
}
// ANCHOR_END: basic

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accents_go_and_capitals_fall() {
        assert_eq!(normalize("Héllo Café NAÏVE"), "hello cafe naive");
        assert_eq!(normalize("e\u{301}"), "e"); // already decomposed
        assert_eq!(normalize("Øresund Łódź"), "øresund łodz"); // Ø and Ł have no decomposition
    }

    #[test]
    fn whitespace_becomes_a_space_and_controls_go() {
        assert_eq!(normalize("a\tb\nc\r\nd\u{A0}e\u{3000}f"), "a b c  d e f");
        assert_eq!(normalize("a\u{0}b\u{7}c\u{200B}d\u{FEFF}e\u{FFFD}f\u{E000}g"), "abcdefg");
        // whitespace that is also a control character is dropped, joining the words
        assert_eq!(normalize("a\u{B}b\u{C}c\u{85}d"), "abcd");
    }

    #[test]
    fn cjk_ideographs_are_spaced_but_kana_and_hangul_are_not() {
        assert_eq!(normalize("中文"), " 中  文 ");
        assert_eq!(normalize("のテ"), "のテ");
        assert!(!is_cjk_ideograph('한'));
    }

    #[test]
    fn lowercase_is_per_character() {
        // `str::to_lowercase` would write a final sigma; Hugging Face lowercases char by char
        assert_eq!(normalize("ΟΔΟΣ"), "οδοσ");
        assert_eq!(normalize("İ"), "i"); // NFD: I + U+0307, the dot is a nonspacing mark
    }
}

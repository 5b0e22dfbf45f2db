//! The pre-tokenizer: how a text is cut into pieces before BPE, chosen by the name the file gives
//! it (`tokenizer.ggml.pre`). BPE never merges across two pieces, so the cut decides which tokens
//! can appear at all.
//!
//! SmolLM2's file says `"smollm"`: every digit is cut off on its own first, and only then is each
//! stretch between digits split by GPT-2's pattern (its `tokenizer.json` has a `Digits` step with
//! `individual_digits` before `ByteLevel`; llama.cpp runs `\p{N}` before GPT-2's pattern). The
//! two orders differ where whitespace runs before a digit: GPT-2's pattern alone gives
//! `"x"," "," 1"` for `"x  1"`, where SmolLM2 gives `"x","  ","1"`.

/// GPT-2's pre-tokenizer pattern: contractions, letters with an optional leading space, numbers,
/// other symbols, and whitespace. A run of whitespace before a word or number gives up its last
/// character: an ASCII space joins the word (`" 1"`), a newline or a tab stays a piece of its own.
pub const GPT2_PATTERN: &str =
    r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+";

/// The pre-tokenizers this reader knows, by the file's name for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreTokenizerKind {
    /// `"gpt-2"` (and `"default"`): GPT-2's pattern over the whole text.
    Gpt2,
    /// `"smollm"`: each number character alone first, then GPT-2's pattern between them.
    DigitsThenGpt2,
}

impl PreTokenizerKind {
    /// The kind a file names, or an error that lists the names this reader knows.
    pub fn from_name(name: &str) -> Result<PreTokenizerKind, String> {
        match name {
            "gpt-2" | "default" => Ok(PreTokenizerKind::Gpt2),
            "smollm" => Ok(PreTokenizerKind::DigitsThenGpt2),
            other => Err(format!(
                "tokenizer.ggml.pre is {other:?}: this tokenizer knows \"smollm\", \"gpt-2\" and \
                 \"default\""
            )),
        }
    }
}

/// A pre-tokenizer, its pattern compiled once.
#[derive(Debug, Clone)]
pub struct PreTokenizer {
    kind: PreTokenizerKind,
    pattern: fancy_regex::Regex,
}

impl PreTokenizer {
    /// The pre-tokenizer of `kind`.
    pub fn new(kind: PreTokenizerKind) -> PreTokenizer {
        let pattern = fancy_regex::Regex::new(GPT2_PATTERN).expect("GPT-2's pattern compiles");
        PreTokenizer { kind, pattern }
    }

    /// Which pre-tokenizer this is.
    pub fn kind(&self) -> PreTokenizerKind {
        self.kind
    }

    /// The pieces of `text`, in order; joined, they give `text` back.
    // ANCHOR: split
    pub fn split<'t>(&self, text: &'t str) -> Vec<&'t str> {
        let mut pieces = Vec::new();
        match self.kind {
            PreTokenizerKind::Gpt2 => self.gpt2(text, &mut pieces),
            PreTokenizerKind::DigitsThenGpt2 => {
                // each number character is a piece; GPT-2's pattern splits what lies between
                let mut start = 0;
                for (at, c) in text.char_indices().filter(|(_, c)| c.is_numeric()) {
                    self.gpt2(&text[start..at], &mut pieces);
                    pieces.push(&text[at..at + c.len_utf8()]);
                    start = at + c.len_utf8();
                }
                self.gpt2(&text[start..], &mut pieces);
            }
        }
        pieces
    }
    // ANCHOR_END: split

    fn gpt2<'t>(&self, text: &'t str, pieces: &mut Vec<&'t str>) {
        for piece in self.pattern.find_iter(text) {
            pieces.push(piece.expect("the pattern's look-ahead cannot fail").as_str());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(kind: PreTokenizerKind, text: &str) -> Vec<&str> {
        PreTokenizer::new(kind).split(text)
    }

    #[test]
    fn whitespace_before_a_digit_is_where_the_two_differ() {
        use PreTokenizerKind::*;
        assert_eq!(split(Gpt2, "x  1"), ["x", " ", " 1"]);
        assert_eq!(split(DigitsThenGpt2, "x  1"), ["x", "  ", "1"]);
        assert_eq!(
            split(Gpt2, "Intro.\n\n1. First"),
            ["Intro", ".", "\n", "\n", "1", ".", " First"]
        );
        assert_eq!(
            split(DigitsThenGpt2, "Intro.\n\n1. First"),
            ["Intro", ".", "\n\n", "1", ".", " First"]
        );
        // one space before a number: the space stays in front of the first digit's piece in
        // GPT-2's split, and is a piece of its own in SmolLM2's
        assert_eq!(split(Gpt2, "in 2014"), ["in", " 2014"]);
        assert_eq!(split(DigitsThenGpt2, "in 2014"), ["in", " ", "2", "0", "1", "4"]);
    }

    #[test]
    fn only_a_final_space_joins_the_next_word() {
        use PreTokenizerKind::Gpt2;
        // a run of spaces: all but the last are one piece, the last goes with the word
        assert_eq!(split(Gpt2, "a   b"), ["a", "  ", " b"]);
        assert_eq!(split(Gpt2, "x  1"), ["x", " ", " 1"]);
        // a newline or a tab at the end of the run stays a piece of its own
        assert_eq!(split(Gpt2, "a\n\nb"), ["a", "\n", "\n", "b"]);
        assert_eq!(split(Gpt2, "a \tb"), ["a", " ", "\t", "b"]);
        assert_eq!(split(Gpt2, "a\t 1"), ["a", "\t", " 1"]);
        // a non-ASCII space (U+3000) is whitespace but not the pattern's optional space
        assert_eq!(split(Gpt2, "a\u{3000}b"), ["a", "\u{3000}", "b"]);
    }

    #[test]
    fn every_number_character_is_cut_not_only_ascii_digits() {
        let pieces = split(PreTokenizerKind::DigitsThenGpt2, "½ of Ⅻ is ٣");
        assert_eq!(pieces, ["½", " of", " ", "Ⅻ", " is", " ", "٣"]);
    }

    #[test]
    fn the_pieces_give_the_text_back() {
        for text in ["", "   ", "a1b22 c333\t\t4\r\n5", "日本語 123 😀"] {
            for kind in [PreTokenizerKind::Gpt2, PreTokenizerKind::DigitsThenGpt2] {
                assert_eq!(split(kind, text).concat(), text, "{kind:?} {text:?}");
            }
        }
    }

    #[test]
    fn an_unknown_name_is_refused_by_name() {
        assert_eq!(PreTokenizerKind::from_name("smollm"), Ok(PreTokenizerKind::DigitsThenGpt2));
        assert_eq!(PreTokenizerKind::from_name("gpt-2"), Ok(PreTokenizerKind::Gpt2));
        let err = PreTokenizerKind::from_name("llama-bpe").unwrap_err();
        assert!(err.contains("\"llama-bpe\"") && err.contains("\"smollm\""), "{err}");
    }
}

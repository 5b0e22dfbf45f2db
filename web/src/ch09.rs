//! Chapter 9 in the page: the trained reverser answers any sequence the reader types, and its
//! decoder's cross-attention for that answer is computed live, for the chapter's explorer.

use ch09_capstone::attention::cross_attention;
use ch09_capstone::vocab::parse_digits;
use ch09_capstone::{new_model, InvalidDigits, Reverser, MAX_DIGITS};
use dfdx::prelude::*;

pub use ch09_capstone::{HEADS, LAYERS};

/// The committed reverser, ready to answer.
pub struct Answerer {
    dev: Cpu,
    model: Reverser<Cpu>,
}

impl Answerer {
    /// The model with the weights of `weights/reverser.safetensors`, given as bytes (no dropout,
    /// as the chapter loads it).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let dev = Cpu::default();
        let mut model = new_model(&dev, 0.0);
        crate::weights::load_into(&mut model, bytes)?;
        Ok(Answerer { dev, model })
    }

    /// For the typed text (code points): digits separated by spaces, or written together. The
    /// input's length `m` and its digits, the answer's length `n` and its digits, then the
    /// cross-attention maps `[layer][head][row][column]`: `n + 1` rows (the digits written, then
    /// the step after the last: `EOS` when it stopped), `m` columns.
    pub fn reverse(&self, typed: &[f32]) -> Result<Vec<f32>, String> {
        let digits = parse(&crate::text::from_code_points(typed)?)?;
        let read = cross_attention(&self.model, &self.dev, &digits);
        let counted = |d: &[u8]| {
            std::iter::once(d.len() as f32)
                .chain(d.iter().map(|&d| f32::from(d)))
                .collect::<Vec<_>>()
        };
        let maps = read.maps.into_iter().flatten().flatten().flatten();
        Ok(counted(&read.input).into_iter().chain(counted(&read.answer)).chain(maps).collect())
    }
}

/// The digits of `text`, checked by the chapter's own rules (each 0 to 9, 1 to [`MAX_DIGITS`]).
pub fn parse(text: &str) -> Result<Vec<u8>, String> {
    let words: Vec<String> = if text.trim().contains(char::is_whitespace) {
        text.split_whitespace().map(str::to_string).collect()
    } else {
        text.trim().chars().map(String::from).collect()
    };
    parse_digits(&words, MAX_DIGITS).map_err(|e| match e {
        // the chapter's messages speak of command-line arguments; the page has a text box
        InvalidDigits::NotADigit(word) => format!("{word:?} is not a digit: type digits 0 to 9"),
        InvalidDigits::Empty => "type some digits, for example 3 1 4 1 5".to_string(),
        too_long => too_long.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::to_code_points;

    #[test]
    fn the_page_answers_as_the_chapter_does() {
        let page =
            Answerer::from_bytes(&std::fs::read(ch09_capstone::trained::WEIGHTS).unwrap()).unwrap();
        let dev = Cpu::default();
        let chapter = ch09_capstone::trained::load_model(&dev);
        for typed in ["3 1 4 1 5", "27182818", "9"] {
            let shown = page.reverse(&to_code_points(typed).collect::<Vec<_>>()).unwrap();
            let read = cross_attention(&chapter, &dev, &parse(typed).unwrap());
            let (m, n) = (read.input.len(), read.answer.len());
            let digits = |from: &[f32]| from.iter().map(|&d| d as u8).collect::<Vec<u8>>();
            assert_eq!(shown[0], m as f32, "{typed}");
            assert_eq!(digits(&shown[1..=m]), read.input, "{typed}");
            assert_eq!(shown[m + 1], n as f32, "{typed}");
            assert_eq!(digits(&shown[m + 2..m + 2 + n]), read.answer, "{typed}");
            let maps: Vec<f32> = read.maps.into_iter().flatten().flatten().flatten().collect();
            assert_eq!(shown[m + 2 + n..], maps[..], "{typed}");
            assert_eq!(maps.len(), LAYERS * HEADS * (n + 1) * m);
        }
    }

    #[test]
    fn typed_text_is_checked_by_the_chapters_rules() {
        assert_eq!(parse(" 1 2  3 ").unwrap(), [1, 2, 3]);
        assert_eq!(parse("123").unwrap(), [1, 2, 3]);
        assert!(parse("12 3").unwrap_err().contains("\"12\" is not a digit"));
        assert!(parse("1a").unwrap_err().contains("\"a\" is not a digit"));
        assert!(parse("  ").unwrap_err().contains("type some digits"));
        assert!(parse(&"1".repeat(24)).unwrap_err().contains("at most 23"));
    }
}

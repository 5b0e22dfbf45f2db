//! The task's tokens: a padding token, start and end markers, and the ten digits.

use ch04_positions::TokenOutOfVocab;

/// Padding: fills a batch's shorter sequences; no attention reaches it, no loss counts it.
pub const PAD: usize = 0;
/// Start of the target: the decoder's first input.
pub const SOS: usize = 1;
/// End of the target: the decoder says it is done.
pub const EOS: usize = 2;
/// PAD, SOS, EOS and the digits 0-9.
pub const VOCAB: usize = 13;

/// The token of digit `d` (0-9): `d + 3`.
pub fn digit_token(d: u8) -> usize {
    d as usize + 3
}

/// The digit of a token, if it is one.
pub fn token_digit(t: usize) -> Option<u8> {
    (3..VOCAB).contains(&t).then(|| (t - 3) as u8)
}

/// Why a sequence of digits cannot go into the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadInput {
    /// a number that is not a single digit 0-9
    NotADigit(String),
    /// no digits at all
    Empty,
    /// more digits than the model's positions allow (the target is one longer, with its EOS)
    TooLong { len: usize, max: usize },
}

impl std::fmt::Display for BadInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadInput::NotADigit(s) => write!(
                f,
                "{s:?} is not a digit: the model reads the digits 0 to 9, one per argument"
            ),
            BadInput::Empty => write!(f, "no digits given: pass some, for example `-- 3 1 4 1 5`"),
            BadInput::TooLong { len, max } => {
                write!(f, "{len} digits is too long: the model accepts at most {max}")
            }
        }
    }
}

impl std::error::Error for BadInput {}

impl From<TokenOutOfVocab> for BadInput {
    fn from(e: TokenOutOfVocab) -> Self {
        BadInput::NotADigit(e.token.to_string())
    }
}

/// Parses command-line words into digits: each must be one of `0`..`9`.
pub fn parse_digits(words: &[String], max: usize) -> Result<Vec<u8>, BadInput> {
    let digits = words
        .iter()
        .map(|w| match w.trim().parse::<u8>() {
            Ok(d) if d <= 9 => Ok(d),
            _ => Err(BadInput::NotADigit(w.clone())),
        })
        .collect::<Result<Vec<u8>, BadInput>>()?;
    match digits.len() {
        0 => Err(BadInput::Empty),
        len if len > max => Err(BadInput::TooLong { len, max }),
        _ => Ok(digits),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_and_tokens_round_trip() {
        assert_eq!(
            (0..10).map(|d| token_digit(digit_token(d))).collect::<Vec<_>>(),
            (0..10).map(Some).collect::<Vec<_>>()
        );
        assert_eq!([PAD, SOS, EOS].map(token_digit), [None, None, None]);
    }

    #[test]
    fn bad_words_are_named() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(parse_digits(&words(&["3", "1", "4"]), 5), Ok(vec![3, 1, 4]));
        assert_eq!(parse_digits(&words(&["3", "12"]), 5), Err(BadInput::NotADigit("12".into())));
        assert_eq!(parse_digits(&words(&["x"]), 5), Err(BadInput::NotADigit("x".into())));
        assert_eq!(parse_digits(&[], 5), Err(BadInput::Empty));
        assert_eq!(parse_digits(&words(&["1"; 6]), 5), Err(BadInput::TooLong { len: 6, max: 5 }));
        assert!(BadInput::TooLong { len: 6, max: 5 }.to_string().contains("at most 5"));
    }
}

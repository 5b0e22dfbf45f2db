//! The task's tokens: a padding token, start and end markers, and the ten digits.

use crate::error::InvalidDigits;

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

/// Parses command-line words into digits: each must be one of `0`..`9`.
pub fn parse_digits(words: &[String], max: usize) -> Result<Vec<u8>, InvalidDigits> {
    let digits = words
        .iter()
        .map(|w| match w.trim().parse::<u8>() {
            Ok(d) if d <= 9 => Ok(d),
            _ => Err(InvalidDigits::NotADigit(w.clone())),
        })
        .collect::<Result<Vec<u8>, InvalidDigits>>()?;
    match digits.len() {
        0 => Err(InvalidDigits::Empty),
        len if len > max => Err(InvalidDigits::TooLong { len, max }),
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
        assert_eq!(
            parse_digits(&words(&["3", "12"]), 5),
            Err(InvalidDigits::NotADigit("12".into()))
        );
        assert_eq!(parse_digits(&words(&["x"]), 5), Err(InvalidDigits::NotADigit("x".into())));
        assert_eq!(parse_digits(&[], 5), Err(InvalidDigits::Empty));
        assert_eq!(
            parse_digits(&words(&["1"; 6]), 5),
            Err(InvalidDigits::TooLong { len: 6, max: 5 })
        );
        assert!(InvalidDigits::TooLong { len: 6, max: 5 }.to_string().contains("at most 5"));
    }
}

//! What can go wrong in this chapter: digits the model cannot take, and committed files that do
//! not load.

use ch04_positions::TokenOutOfVocab;
pub use support::LoadError;

/// Why a sequence of digits cannot go into the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InvalidDigits {
    /// a number that is not a single digit 0-9
    NotADigit(String),
    /// no digits at all
    Empty,
    /// more digits than the model's positions allow (the target is one longer, with its EOS)
    TooLong { len: usize, max: usize },
}

impl std::fmt::Display for InvalidDigits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InvalidDigits::NotADigit(s) => write!(
                f,
                "{s:?} is not a digit: the model reads the digits 0 to 9, one per argument"
            ),
            InvalidDigits::Empty => {
                write!(f, "no digits given: pass some, for example `-- 3 1 4 1 5`")
            }
            InvalidDigits::TooLong { len, max } => {
                write!(f, "{len} digits is too long: the model accepts at most {max}")
            }
        }
    }
}

impl std::error::Error for InvalidDigits {}

impl From<TokenOutOfVocab> for InvalidDigits {
    fn from(e: TokenOutOfVocab) -> Self {
        InvalidDigits::NotADigit(e.token.to_string())
    }
}

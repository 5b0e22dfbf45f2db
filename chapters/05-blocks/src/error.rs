//! What goes wrong when a model is given token ids it cannot embed.

use ch04_positions::{SequenceTooLong, TokenOutOfVocab};

/// Why token ids could not be embedded, so that [`Seq2Seq::try_forward`](crate::Seq2Seq::try_forward)
/// refused them: one of chapter 4's two errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbedError {
    /// A source or target sequence is longer than the model's `max_len`.
    TooLong(SequenceTooLong),
    /// A source or target id is outside its vocabulary.
    OutOfVocab(TokenOutOfVocab),
}

impl From<SequenceTooLong> for EmbedError {
    fn from(e: SequenceTooLong) -> Self {
        Self::TooLong(e)
    }
}

impl From<TokenOutOfVocab> for EmbedError {
    fn from(e: TokenOutOfVocab) -> Self {
        Self::OutOfVocab(e)
    }
}

impl std::fmt::Display for EmbedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::TooLong(e) => e.fmt(f),
            Self::OutOfVocab(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for EmbedError {}

//! What can go wrong at run time here: a sequence longer than a positional table, and a token id
//! outside the vocabulary. Each `try_forward` returns one of these; its `forward` panics with the
//! same message.

/// A sequence has more positions than a positional table (or a learned position embedding) was
/// built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SequenceTooLong {
    /// the sequence's length
    pub len: usize,
    /// the positions the table has
    pub max_len: usize,
}

impl std::fmt::Display for SequenceTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Self { len, max_len } = self;
        write!(
            f,
            "sequence of length {len} but the positional table has only {max_len} positions; \
             build it with max_len >= {len}"
        )
    }
}

impl std::error::Error for SequenceTooLong {}

/// A token id is outside the vocabulary of an embedding table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenOutOfVocab {
    /// the offending id
    pub token: usize,
    /// the number of rows of the table: valid ids are `0..vocab`
    pub vocab: usize,
}

impl std::fmt::Display for TokenOutOfVocab {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Self { token, vocab } = self;
        write!(f, "token id {token} is outside the vocabulary of {vocab} ids (0..{vocab})")
    }
}

impl std::error::Error for TokenOutOfVocab {}

//! What can go wrong at run time: a character the vocabulary lacks, a prompt longer than the
//! model's context, generation settings that mean nothing.

/// A character outside the 96 of the vocabulary (newline and printable ASCII).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CharOutOfVocab {
    pub c: char,
}

impl std::fmt::Display for CharOutOfVocab {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "character {:?} (U+{:04X}) is not in the vocabulary: newline and printable ASCII \
             (space to '~') only",
            self.c, self.c as u32
        )
    }
}

impl std::error::Error for CharOutOfVocab {}

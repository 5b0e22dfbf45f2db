//! What can go wrong in this chapter: a sparsity pattern asked for sizes it cannot have.

/// A [`BigBird`](crate::BigBird) pattern that cannot be built from the sizes given, with what to
/// change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InvalidBigBird {
    /// No tokens, so no blocks.
    NoTokens,
    /// The block size is 0 or does not divide the sequence length.
    BlockSize { n: usize, block: usize },
    /// More random blocks per row than there are blocks to draw from.
    TooManyRandom { random: usize, blocks: usize },
    /// More blocks than a caller can draw ([`crate::BigBird::try_new_to_draw`]), refused before
    /// the pattern is built.
    TooManyBlocks { blocks: usize, max: usize },
}

impl std::fmt::Display for InvalidBigBird {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Self::NoTokens => {
                write!(f, "BigBird: a sequence of 0 tokens has no blocks: give at least one block")
            }
            Self::BlockSize { n, block: 0 } => write!(
                f,
                "BigBird: a block of 0 tokens cannot cover n = {n}: give a block size that \
                 divides {n}"
            ),
            Self::BlockSize { n, block } => write!(
                f,
                "BigBird: blocks of {block} tokens do not divide n = {n}: give a block size that \
                 divides {n}, or {} tokens (the next multiple of {block})",
                n.next_multiple_of(block)
            ),
            Self::TooManyRandom { random, blocks } => write!(
                f,
                "BigBird: cannot draw {random} random blocks per row out of {blocks}: draw at \
                 most {blocks}"
            ),
            Self::TooManyBlocks { blocks, max } => write!(
                f,
                "BigBird: {blocks} blocks are more than the {max} that can be drawn here: take \
                 larger blocks or fewer tokens"
            ),
        }
    }
}

impl std::error::Error for InvalidBigBird {}

//! What can go wrong in this chapter: images whose sizes are known only at run time and do not
//! fit the model, test images picked by an index the test set does not have, and committed files
//! that do not load.
//!
//! Where the sizes are `Const`, each image error is a compile error instead (see the crate's
//! documentation).

pub use support::LoadError;

/// Images that a patch embedding or a ViT cannot take, with what to do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImageError {
    /// The images have another number of channels than the model was built for.
    Channels { expected: usize, got: usize },
    /// The patch size does not divide a side of the image. PyTorch's strided `Conv2d` silently
    /// drops the remainder; here it is an error.
    NotDivisible { height: usize, width: usize, patch: usize },
    /// The images are not the size the model's position embeddings were made for.
    Size { expected: usize, height: usize, width: usize },
}

impl std::fmt::Display for ImageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Self::Channels { expected, got } => write!(
                f,
                "the images have {got} channel(s) but the model takes {expected}: convert them \
                 (e.g. grey to RGB) or build the model with C = {got}"
            ),
            Self::NotDivisible { height, width, patch } => write!(
                f,
                "a {height}x{width} image cannot be cut into {patch}x{patch} patches: crop or pad \
                 it to multiples of {patch}, or choose a patch size that divides both sides"
            ),
            Self::Size { expected, height, width } if height == width => write!(
                f,
                "the model's position embeddings are for {expected}x{expected} images, got \
                 {height}x{width}: resize the images or build the model with IMG = {height}"
            ),
            Self::Size { expected, height, width } => write!(
                f,
                "the model takes square {expected}x{expected} images, got {height}x{width}: \
                 resize or crop them to {expected}x{expected}"
            ),
        }
    }
}

impl std::error::Error for ImageError {}

/// Test images picked by index (for a figure) that the test set cannot give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InvalidPick {
    /// No index at all.
    Empty { len: usize },
    /// An index past the last of the `len` test images.
    OutOfRange { index: usize, len: usize },
}

impl std::fmt::Display for InvalidPick {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Self::Empty { len } => write!(
                f,
                "no test image picked: give at least one index, from 0 to {}",
                len.saturating_sub(1)
            ),
            Self::OutOfRange { index, len } => write!(
                f,
                "there is no test image {index}: the test set has {len} images, numbered 0 to {}",
                len.saturating_sub(1)
            ),
        }
    }
}

impl std::error::Error for InvalidPick {}

//! Why a GGUF file could not be read: every error names the field it was reading and where.

use std::fmt;

/// A GGUF file that cannot be read. The file is untrusted input: every way it can be wrong is one
/// of these, never a panic, a hang or an allocation the file's size does not justify.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GgufError {
    /// The first four bytes are not `GGUF`.
    BadMagic([u8; 4]),
    /// A version this reader does not know (it reads 2 and 3).
    UnknownVersion(u32),
    /// The file ends inside `field`, which needed `needed` bytes at byte `at`.
    Truncated { field: String, at: usize, needed: u64 },
    /// A count larger than the rest of the file could hold: `count` items of at least
    /// `min_bytes` each, with `left` bytes left.
    CountTooLarge { field: String, count: u64, min_bytes: u64, left: u64 },
    /// A metadata value type this reader does not know.
    UnknownValueType { field: String, code: u32 },
    /// A tensor type this reader does not know.
    UnknownTensorType { tensor: String, code: u32 },
    /// A string that is not UTF-8.
    NotUtf8 { field: String, at: usize },
    /// A tensor with no dimensions, more than four, a zero dimension, or more elements than fit
    /// in memory.
    BadShape { tensor: String, dims: Vec<u64> },
    /// A tensor whose first dimension is not a whole number of its type's blocks.
    NotWholeBlocks { tensor: String, elements: u64, block: u64 },
    /// `general.alignment` that is zero or not a power of two.
    BadAlignment(u64),
    /// A tensor's data offset that is not a multiple of the alignment.
    MisalignedTensor { tensor: String, offset: u64, alignment: u64 },
    /// A tensor whose data lies (partly) past the end of the file.
    DataOutOfRange { tensor: String, offset: u64, bytes: u64, data_bytes: u64 },
    /// Two tensors of one name, or two metadata keys of one name.
    Duplicate { what: &'static str, name: String },
    /// A metadata key the caller needs is missing, or has another type.
    Missing { key: String, wanted: &'static str },
}

impl fmt::Display for GgufError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use GgufError::*;
        match self {
            BadMagic(m) => write!(f, "not a GGUF file: the magic is {m:?}, not b\"GGUF\""),
            UnknownVersion(v) => write!(f, "GGUF version {v}: this reader knows versions 2 and 3"),
            Truncated { field, at, needed } => {
                write!(f, "the file ends inside {field}: {needed} bytes needed at byte {at}")
            }
            CountTooLarge { field, count, min_bytes, left } => write!(
                f,
                "{field} claims {count} items of at least {min_bytes} bytes, but only {left} bytes are left"
            ),
            UnknownValueType { field, code } => write!(f, "{field}: unknown value type {code}"),
            UnknownTensorType { tensor, code } => {
                write!(f, "tensor {tensor:?}: unknown tensor type {code}")
            }
            NotUtf8 { field, at } => write!(f, "{field} at byte {at} is not UTF-8"),
            BadShape { tensor, dims } => write!(f, "tensor {tensor:?}: bad dimensions {dims:?}"),
            NotWholeBlocks { tensor, elements, block } => write!(
                f,
                "tensor {tensor:?}: {elements} elements per row is not a whole number of blocks of {block}"
            ),
            BadAlignment(a) => write!(f, "general.alignment is {a}: it must be a power of two"),
            MisalignedTensor { tensor, offset, alignment } => write!(
                f,
                "tensor {tensor:?}: data offset {offset} is not a multiple of the alignment {alignment}"
            ),
            DataOutOfRange { tensor, offset, bytes, data_bytes } => write!(
                f,
                "tensor {tensor:?}: {bytes} bytes at offset {offset} run past the data section's {data_bytes} bytes"
            ),
            Duplicate { what, name } => write!(f, "{what} {name:?} appears twice"),
            Missing { key, wanted } => write!(f, "metadata {key:?}: missing, or not {wanted}"),
        }
    }
}

impl std::error::Error for GgufError {}

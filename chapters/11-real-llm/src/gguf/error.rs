//! Why a GGUF file could not be read: every error names the field it was reading and where.

use std::fmt;

/// A GGUF file that cannot be read. The file is untrusted input: every way it can be wrong is one
/// of these, never a panic, a hang or an allocation the file's size does not justify. Names taken
/// from the file (keys, tensor names) are shown cut to their first 64 characters, so
/// every message is one line of reasonable length.
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
    /// Arrays nested more than `limit` ([`MAX_ARRAY_DEPTH`](super::MAX_ARRAY_DEPTH)) levels deep.
    TooDeep { field: String, limit: usize },
    /// Reading `field` would bring what the reader allocates to `needed` bytes, past its `budget`
    /// ([`MEMORY_PER_FILE_BYTE`](super::MEMORY_PER_FILE_BYTE) times the file's size).
    OverMemoryBudget { field: String, needed: u64, budget: u64 },
    /// Two tensors whose data share bytes: `tensor`'s starts before `other`'s ends.
    Overlap { tensor: String, other: String },
}

/// How many characters of a name taken from the file an error shows.
const SHOWN_CHARS: usize = 64;

/// `name` as an error shows it: quoted and escaped, cut after [`SHOWN_CHARS`] characters.
fn short(name: &str) -> String {
    match name.char_indices().nth(SHOWN_CHARS) {
        None => format!("{name:?}"),
        Some((cut, _)) => format!("{:?}... ({} bytes)", &name[..cut], name.len()),
    }
}

/// What the reader was reading when it failed, put into words only when an error is made (a
/// metadata key is the file's, so it is shown cut, like every name from the file).
#[derive(Debug, Clone, Copy)]
pub(super) enum Field<'a> {
    /// a part of the file with a fixed name: "the magic", "a metadata key"
    Named(&'static str),
    /// the value of the metadata entry of this key
    Metadata(&'a str),
    /// the value type of the metadata entry of this key
    MetadataType(&'a str),
    /// a part (`what`) of the info of the tensor of this name
    Tensor(&'a str, &'static str),
}

impl fmt::Display for Field<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Field::Named(name) => f.write_str(name),
            Field::Metadata(key) => write!(f, "metadata {}", short(key)),
            Field::MetadataType(key) => write!(f, "metadata {}'s value type", short(key)),
            Field::Tensor(name, what) => write!(f, "tensor {}'s {what}", short(name)),
        }
    }
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
                write!(f, "tensor {}: unknown tensor type {code}", short(tensor))
            }
            NotUtf8 { field, at } => write!(f, "{field} at byte {at} is not UTF-8"),
            BadShape { tensor, dims } => {
                write!(f, "tensor {}: bad dimensions {dims:?}", short(tensor))
            }
            NotWholeBlocks { tensor, elements, block } => write!(
                f,
                "tensor {}: {elements} elements per row is not a whole number of blocks of {block}",
                short(tensor)
            ),
            BadAlignment(a) => write!(f, "general.alignment is {a}: it must be a power of two"),
            MisalignedTensor { tensor, offset, alignment } => write!(
                f,
                "tensor {}: data offset {offset} is not a multiple of the alignment {alignment}",
                short(tensor)
            ),
            DataOutOfRange { tensor, offset, bytes, data_bytes } => write!(
                f,
                "tensor {}: {bytes} bytes at offset {offset} run past the data section's {data_bytes} bytes",
                short(tensor)
            ),
            Duplicate { what, name } => write!(f, "{what} {} appears twice", short(name)),
            Missing { key, wanted } => write!(f, "metadata {key:?}: missing, or not {wanted}"),
            TooDeep { field, limit } => write!(
                f,
                "{field}: arrays nested more than {limit} levels deep (this reader's limit)"
            ),
            OverMemoryBudget { field, needed, budget } => write!(
                f,
                "{field} would bring the reader's memory to {needed} bytes, past its budget of \
                 {budget} bytes ({} times the file's size)",
                super::MEMORY_PER_FILE_BYTE
            ),
            Overlap { tensor, other } => write!(
                f,
                "tensor {}: its data overlaps the data of tensor {}",
                short(tensor),
                short(other)
            ),
        }
    }
}

impl std::error::Error for GgufError {}

//! Why a CTranslate2 `model.bin` could not be read: every error names what it was reading and
//! where, in one line.

use std::fmt;

/// A `model.bin` that cannot be read. The file is untrusted input: each way it can be wrong is one
/// of these, never a panic or an allocation its size does not justify. Names taken from the file
/// are shown cut to their first 64 characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ct2Error {
    /// A format version this reader does not know (it reads 4 to 6, the versions that write each
    /// variable's type and byte count).
    UnknownVersion(u32),
    /// The file ends inside `field`, which needed `needed` bytes at byte `at`.
    Truncated { field: String, at: usize, needed: usize },
    /// A count larger than the rest of the file could hold: `count` items of at least
    /// `min_bytes` each, with `left` bytes left.
    CountTooLarge { field: String, count: usize, min_bytes: usize, left: usize },
    /// A string whose length is 0 (it must count its closing NUL), whose last byte is not NUL, or
    /// that is not UTF-8.
    BadString { field: String, at: usize },
    /// A type code this reader does not know.
    UnknownType { variable: String, code: u8 },
    /// A variable whose byte count is not its shape times its type's size (or overflows).
    WrongByteCount { variable: String, shape: Vec<usize>, bytes: usize, expected: Option<usize> },
    /// Two variables, or an alias and a variable, of one name.
    Duplicate { name: String },
    /// An alias that names no variable.
    DanglingAlias { alias: String, target: String },
    /// Bytes after the last alias.
    TrailingBytes { at: usize, left: usize },
    /// A variable the model needs is missing, or has another shape or type.
    Missing { variable: String, wanted: String },
}

const SHOWN_CHARS: usize = 64;

/// `name` quoted and escaped, cut after [`SHOWN_CHARS`] characters.
pub(crate) fn short(name: &str) -> String {
    match name.char_indices().nth(SHOWN_CHARS) {
        None => format!("{name:?}"),
        Some((cut, _)) => format!("{:?}... ({} bytes)", &name[..cut], name.len()),
    }
}

impl fmt::Display for Ct2Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Ct2Error::*;
        match self {
            UnknownVersion(v) => {
                write!(f, "model.bin format version {v}: this reader knows versions 4 to 6")
            }
            Truncated { field, at, needed } => {
                write!(f, "the file ends inside {field}: {needed} bytes needed at byte {at}")
            }
            CountTooLarge { field, count, min_bytes, left } => write!(
                f,
                "{field} is {count}, but {left} bytes are left and each takes at least {min_bytes}"
            ),
            BadString { field, at } => {
                write!(f, "{field} at byte {at} is not a NUL-terminated UTF-8 string")
            }
            UnknownType { variable, code } => write!(
                f,
                "variable {} has type code {code}: this reader knows 0 (f32), 1 (i8), 2 (i16), \
                 3 (i32), 4 (f16) and 5 (bf16)",
                short(variable)
            ),
            WrongByteCount { variable, shape, bytes, expected: Some(e) } => write!(
                f,
                "variable {} of shape {shape:?} holds {bytes} bytes; its shape and type make {e}",
                short(variable)
            ),
            WrongByteCount { variable, shape, bytes, expected: None } => write!(
                f,
                "variable {} of shape {shape:?} ({bytes} bytes): its size overflows",
                short(variable)
            ),
            Duplicate { name } => write!(f, "two entries are named {}", short(name)),
            DanglingAlias { alias, target } => {
                write!(f, "alias {} names {}, which is no variable", short(alias), short(target))
            }
            TrailingBytes { at, left } => {
                write!(f, "{left} bytes follow the last alias (at byte {at})")
            }
            Missing { variable, wanted } => {
                write!(f, "variable {} is missing or not {wanted}", short(variable))
            }
        }
    }
}

impl std::error::Error for Ct2Error {}

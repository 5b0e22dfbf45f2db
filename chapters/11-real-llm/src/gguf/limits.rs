//! What the reader refuses to do for a hostile file: nest arrays without end, or allocate far more
//! memory than the file's size.

use super::error::{Field, GgufError};

/// The deepest nesting of arrays the reader accepts: an array of numbers is 1 level, an array of
/// such arrays 2.
///
/// The format allows arrays of arrays; llama.cpp's reader refuses them altogether, and the files
/// in use hold arrays one level deep (SmolLM2's: its 49,152 tokens, 48,900 merges and token
/// types). The reader reads an array by calling itself once per level, and a level is only 12
/// bytes of file, so without a limit a file of a megabyte or two nests deep enough to overflow the
/// stack, which aborts the program. Eight levels cost eight stack frames and leave room for any
/// structure a file would mean.
pub const MAX_ARRAY_DEPTH: usize = 8;

/// The reader's memory budget, in bytes per byte of the file: everything it allocates while it
/// reads the header and tables (the strings, the arrays, the tensor table, the checks' scratch)
/// stays under this multiple of the file's size.
///
/// A metadata value takes `size_of::<Value>()` (32) bytes in memory, so an array of one-byte
/// numbers would take 32 times its size in the file, of 4-byte numbers 8 times; a metadata entry
/// takes 64 bytes (with its place in the duplicate check's index) for at least 13 of file, 4.9
/// times. Real files are mostly tensor data: reading SmolLM2's 98 MB file takes 5.5 MB at the
/// peak, and its metadata alone, written as a file of its own (a vocabulary-only file), 3.1
/// times that file's size (both measured in `tests/gguf_memory.rs`). Eight times refuses only
/// files whose metadata is mostly arrays of one- or two-byte numbers (32 or 16 times), which no
/// model file is; arrays of 4-byte numbers just fit.
pub const MEMORY_PER_FILE_BYTE: u64 = 8;

/// The bytes the reader may still allocate, charged before each allocation that grows with the
/// file; never refunded, so the sum bounds the peak.
#[derive(Debug, Clone)]
pub(super) struct Budget {
    limit: u64,
    used: u64,
}

impl Budget {
    /// The budget for a file of `file_bytes` bytes.
    pub(super) fn for_file(file_bytes: usize) -> Budget {
        Budget { limit: (file_bytes as u64).saturating_mul(MEMORY_PER_FILE_BYTE), used: 0 }
    }

    /// Charges `count` items of `item_bytes` each for `field`; an error if that passes the limit.
    pub(super) fn charge(
        &mut self,
        count: u64,
        item_bytes: usize,
        field: Field<'_>,
    ) -> Result<(), GgufError> {
        let bytes = count.saturating_mul(item_bytes as u64);
        self.used = self.used.saturating_add(bytes);
        if self.used > self.limit {
            return Err(GgufError::OverMemoryBudget {
                field: field.to_string(),
                needed: self.used,
                budget: self.limit,
            });
        }
        Ok(())
    }
}

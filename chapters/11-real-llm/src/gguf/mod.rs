//! GGUF, the single-file format of llama.cpp: a header, metadata (the model's settings and its
//! tokenizer), a table of tensors, then their data, each tensor aligned.
//!
//! * [`Header::parse`] reads and checks the header and tables from the file's bytes, and
//!   [`Gguf::parse`] keeps the bytes with them;
//! * [`Gguf::tensor_data`] gives one tensor's bytes; [`Gguf::get`] one metadata value;
//! * errors ([`GgufError`], `error.rs`) name the field: the file is untrusted input;
//! * arrays nest at most [`MAX_ARRAY_DEPTH`] levels, and the reader allocates at most
//!   [`MEMORY_PER_FILE_BYTE`] times the file's size (`limits.rs`);
//! * [`dequantize`] turns a tensor's bytes into `f32` (`dequant.rs`);
//! * [`write::Builder`] writes small valid files, for the tests and the fuzzing.
//!
//! Layout (little-endian): `b"GGUF"`, version `u32`, tensor count `u64`, metadata count `u64`;
//! each metadata entry a key (a `u64` length and UTF-8 bytes), a value type `u32` and the value;
//! each tensor a name, a dimension count `u32`, the dimensions `u64` (innermost first), a type
//! `u32` and an offset `u64` into the data section, which starts at the next multiple of
//! `general.alignment` (32 if absent).

mod dequant;
mod error;
mod limits;
mod reader;
mod types;
mod value;
pub mod write;

pub use dequant::{dequantize, q4_1_block, q8_0_block};
pub use error::GgufError;
pub use limits::{MAX_ARRAY_DEPTH, MEMORY_PER_FILE_BYTE};
pub use reader::TensorInfo;
pub use types::TensorType;
pub use value::Value;

use error::Field;
use reader::{tensor_info, Cursor};
use std::mem::{size_of, take};

/// The alignment of the data section and of every tensor when `general.alignment` is absent.
pub const DEFAULT_ALIGNMENT: u64 = 32;

/// A GGUF file's header and tables, checked against the file's length.
#[derive(Debug, Clone)]
pub struct Header {
    pub version: u32,
    /// the metadata in file order
    pub metadata: Vec<(String, Value)>,
    pub tensors: Vec<TensorInfo>,
    pub alignment: u64,
    /// where the data section starts in the file
    pub data_start: usize,
}

/// A GGUF file: its checked header and its bytes.
#[derive(Debug, Clone)]
pub struct Gguf {
    pub header: Header,
    bytes: Vec<u8>,
}

impl Gguf {
    /// Reads and checks a whole GGUF file held in `bytes`.
    pub fn parse(bytes: Vec<u8>) -> Result<Gguf, GgufError> {
        Ok(Gguf { header: Header::parse(&bytes)?, bytes })
    }

    /// The metadata value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.header.get(key)
    }

    /// The tensor named `name`.
    pub fn tensor(&self, name: &str) -> Option<&TensorInfo> {
        self.header.tensors.iter().find(|t| t.name == name)
    }

    /// The bytes of tensor `info` (one of the header's tensors, checked to lie inside the file).
    pub fn tensor_data(&self, info: &TensorInfo) -> &[u8] {
        let start = self.header.data_start + info.offset as usize;
        &self.bytes[start..start + info.bytes() as usize]
    }
}

impl Header {
    /// Reads and checks the header and tables of the GGUF file `bytes` (the whole file: the
    /// tensors' data must lie inside it).
    pub fn parse(bytes: &[u8]) -> Result<Header, GgufError> {
        let mut c = Cursor::new(bytes);
        let magic = c.u32(Field::Named("the magic"))?.to_le_bytes();
        if &magic != b"GGUF" {
            return Err(GgufError::BadMagic(magic));
        }
        let version = c.u32(Field::Named("the version"))?;
        if !(2..=3).contains(&version) {
            return Err(GgufError::UnknownVersion(version));
        }
        // the smallest tensor info is 32 bytes, the smallest metadata entry 13; in memory each
        // is one element of its table and one of the index that the checks below sort
        let n_tensors = c.count(
            Field::Named("the tensor count"),
            32,
            size_of::<TensorInfo>() + 2 * size_of::<usize>(),
        )?;
        let n_metadata = c.count(
            Field::Named("the metadata count"),
            13,
            size_of::<(String, Value)>() + size_of::<usize>(),
        )?;
        let mut metadata = Vec::with_capacity(n_metadata as usize);
        for _ in 0..n_metadata {
            let key = c.string(Field::Named("a metadata key"))?;
            let code = c.u32(Field::MetadataType(&key))?;
            let value = c.value(code, Field::Metadata(&key), 0)?;
            metadata.push((key, value));
        }
        if let Some(i) = first_repeated(metadata.len(), |i| &metadata[i].0) {
            let name = metadata.swap_remove(i).0;
            return Err(GgufError::Duplicate { what: "metadata key", name });
        }
        let mut tensors = Vec::with_capacity(n_tensors as usize);
        for _ in 0..n_tensors {
            tensors.push(tensor_info(&mut c)?);
        }
        if let Some(i) = first_repeated(tensors.len(), |i| &tensors[i].name) {
            let name = tensors.swap_remove(i).name;
            return Err(GgufError::Duplicate { what: "tensor", name });
        }
        let alignment = match metadata.iter().find(|(k, _)| k == "general.alignment") {
            None => DEFAULT_ALIGNMENT,
            Some((_, v)) => v.as_u64().ok_or(GgufError::Missing {
                key: "general.alignment".into(),
                wanted: "an unsigned integer",
            })?,
        };
        if alignment == 0 || !alignment.is_power_of_two() {
            return Err(GgufError::BadAlignment(alignment));
        }
        let end_of_tables = c.pos() as u64;
        let data_start = end_of_tables.div_ceil(alignment) * alignment;
        let data_bytes =
            (bytes.len() as u64).checked_sub(data_start).ok_or_else(|| GgufError::Truncated {
                field: "the padding before the data section".into(),
                at: bytes.len(),
                needed: data_start - bytes.len() as u64,
            })?;
        // the errors take the tensor's name out of the table (the table is dropped with them)
        for t in &mut tensors {
            if t.offset % alignment != 0 {
                return Err(GgufError::MisalignedTensor {
                    tensor: take(&mut t.name),
                    offset: t.offset,
                    alignment,
                });
            }
            if t.offset.checked_add(t.bytes()).is_none_or(|end| end > data_bytes) {
                return Err(GgufError::DataOutOfRange {
                    tensor: take(&mut t.name),
                    offset: t.offset,
                    bytes: t.bytes(),
                    data_bytes,
                });
            }
        }
        if let Some((later, earlier)) = first_overlap(&tensors) {
            let tensor = take(&mut tensors[later].name);
            let other = take(&mut tensors[earlier].name);
            return Err(GgufError::Overlap { tensor, other });
        }
        let data_start = data_start as usize;
        Ok(Header { version, metadata, tensors, alignment, data_start })
    }

    /// The metadata value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.metadata.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// The index of a name that `name(0..n)` holds twice, if any (found by sorting the indices: no
/// name is copied).
fn first_repeated<'a>(n: usize, name: impl Fn(usize) -> &'a str) -> Option<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_unstable_by(|&a, &b| name(a).cmp(name(b)));
    order.windows(2).find(|w| name(w[0]) == name(w[1])).map(|w| w[1])
}

/// Two tensors whose data share bytes, if any: the indices of the one that starts later (or, at
/// one offset, comes later in the table) and of the one it starts inside. The tensors' ranges are
/// known to lie inside the data section, so no end overflows.
fn first_overlap(tensors: &[TensorInfo]) -> Option<(usize, usize)> {
    let mut order: Vec<usize> = (0..tensors.len()).collect();
    order.sort_unstable_by_key(|&i| (tensors[i].offset, i));
    let end = |i: usize| tensors[i].offset + tensors[i].bytes();
    order.windows(2).find(|w| end(w[0]) > tensors[w[1]].offset).map(|w| (w[1], w[0]))
}

//! GGUF, the single-file format of llama.cpp: a header, metadata (the model's settings and its
//! tokenizer), a table of tensors, then their data, each tensor aligned.
//!
//! * [`Header::parse`] reads and checks the header and tables from the file's bytes, and
//!   [`Gguf::parse`] keeps the bytes with them;
//! * [`Gguf::tensor_data`] gives one tensor's bytes; [`Gguf::get`] one metadata value;
//! * errors ([`GgufError`], `error.rs`) name the field: the file is untrusted input;
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
mod reader;
mod types;
mod value;
pub mod write;

pub use dequant::{dequantize, q4_1_block, q8_0_block};
pub use error::GgufError;
pub use reader::TensorInfo;
pub use types::TensorType;
pub use value::Value;

use reader::{tensor_info, Cursor};
use std::collections::HashSet;

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
        let magic = c.u32("the magic")?.to_le_bytes();
        if &magic != b"GGUF" {
            return Err(GgufError::BadMagic(magic));
        }
        let version = c.u32("the version")?;
        if !(2..=3).contains(&version) {
            return Err(GgufError::UnknownVersion(version));
        }
        // the smallest tensor info is 32 bytes, the smallest metadata entry 13
        let n_tensors = c.count("the tensor count", 32)?;
        let n_metadata = c.count("the metadata count", 13)?;
        let mut metadata = Vec::with_capacity(n_metadata as usize);
        let mut keys = HashSet::new();
        for _ in 0..n_metadata {
            let key = c.string("a metadata key")?;
            let code = c.u32(&format!("metadata {key:?}'s value type"))?;
            let value = c.value(code, &format!("metadata {key:?}"))?;
            if !keys.insert(key.clone()) {
                return Err(GgufError::Duplicate { what: "metadata key", name: key });
            }
            metadata.push((key, value));
        }
        let mut tensors = Vec::with_capacity(n_tensors as usize);
        let mut names = HashSet::new();
        for _ in 0..n_tensors {
            let info = tensor_info(&mut c)?;
            if !names.insert(info.name.clone()) {
                return Err(GgufError::Duplicate { what: "tensor", name: info.name });
            }
            tensors.push(info);
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
        for t in &tensors {
            if t.offset % alignment != 0 {
                return Err(GgufError::MisalignedTensor {
                    tensor: t.name.clone(),
                    offset: t.offset,
                    alignment,
                });
            }
            if t.offset.checked_add(t.bytes()).is_none_or(|end| end > data_bytes) {
                return Err(GgufError::DataOutOfRange {
                    tensor: t.name.clone(),
                    offset: t.offset,
                    bytes: t.bytes(),
                    data_bytes,
                });
            }
        }
        let data_start = data_start as usize;
        Ok(Header { version, metadata, tensors, alignment, data_start })
    }

    /// The metadata value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.metadata.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

//! Writing GGUF files: small, valid files built in code, for the tests and the fuzzing that
//! mutates them. The reader's inverse for the value and tensor types this chapter knows.

use super::types::TensorType;
use super::value::Value;

/// A GGUF file under construction: metadata, then tensors with their bytes.
#[derive(Debug, Clone, Default)]
pub struct Builder {
    metadata: Vec<(String, Value)>,
    tensors: Vec<(String, Vec<u64>, TensorType, Vec<u8>)>,
    alignment: Option<u64>,
}

impl Builder {
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Adds a metadata entry.
    pub fn meta(mut self, key: &str, value: Value) -> Builder {
        self.metadata.push((key.into(), value));
        self
    }

    /// Sets `general.alignment` (and aligns the data to it).
    pub fn alignment(mut self, alignment: u64) -> Builder {
        self.alignment = Some(alignment);
        self.meta("general.alignment", Value::U32(alignment as u32))
    }

    /// Adds a tensor of `dims` (innermost first) whose data is `data`, which must be
    /// `kind.bytes_of(elements)` bytes.
    pub fn tensor(mut self, name: &str, dims: &[u64], kind: TensorType, data: Vec<u8>) -> Builder {
        assert_eq!(data.len() as u64, kind.bytes_of(dims.iter().product()), "tensor {name}'s data");
        self.tensors.push((name.into(), dims.to_vec(), kind, data));
        self
    }

    /// The file's bytes (version 3).
    pub fn bytes(&self) -> Vec<u8> {
        self.bytes_and_spots().0
    }

    /// The file's bytes and where each of its counts, lengths, types, dimensions and offsets
    /// lies, for tests that change one of them by hand or at random.
    pub fn bytes_and_spots(&self) -> (Vec<u8>, Vec<Spot>) {
        let alignment = self.alignment.unwrap_or(super::DEFAULT_ALIGNMENT) as usize;
        let mut out = Out::header(self.tensors.len(), self.metadata.len());
        for (key, value) in &self.metadata {
            out.string(Part::KeyLength, key);
            out.number(Part::ValueType, &code(value).to_le_bytes());
            out.value(value);
        }
        let mut offset = 0usize;
        let mut data = Vec::new();
        for (name, dims, kind, bytes) in &self.tensors {
            out.string(Part::TensorNameLength, name);
            out.number(Part::DimensionCount, &(dims.len() as u32).to_le_bytes());
            dims.iter().for_each(|d| out.number(Part::Dimension, &d.to_le_bytes()));
            out.number(Part::TensorType, &kind_code(*kind).to_le_bytes());
            out.number(Part::Offset, &(offset as u64).to_le_bytes());
            data.extend(bytes);
            offset += bytes.len();
            let padded = offset.div_ceil(alignment) * alignment;
            data.resize(data.len() + padded - offset, 0);
            offset = padded;
        }
        let mut bytes = out.bytes;
        bytes.resize(bytes.len().div_ceil(alignment) * alignment, 0);
        bytes.extend(data);
        (bytes, out.spots)
    }
}

/// A file whose one metadata entry, `key`, is `depth` arrays nested one in another, the innermost
/// empty: 12 bytes a level, and a valid file for a reader that reads that deep. Written as bytes,
/// without building the nested [`Value`], whose drop would recurse once per level too.
pub fn nested_arrays(key: &str, depth: usize) -> Vec<u8> {
    let mut out = Out::header(0, 1);
    out.string(Part::KeyLength, key);
    out.number(Part::ValueType, &9u32.to_le_bytes());
    let mut bytes = out.bytes;
    bytes.reserve(12 * depth);
    for level in 1..=depth {
        // each level an array of one array (whose type is the inner type: not written again),
        // the innermost an array of no u8
        let (inner, count) = if level < depth { (9u32, 1u64) } else { (0, 0) };
        bytes.extend(inner.to_le_bytes());
        bytes.extend(count.to_le_bytes());
    }
    // no tensors: the data section is empty, and starts at the next multiple of the alignment
    let alignment = super::DEFAULT_ALIGNMENT as usize;
    bytes.resize(bytes.len().div_ceil(alignment) * alignment, 0);
    bytes
}

/// Which number of the header a [`Spot`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    Version,
    TensorCount,
    MetadataCount,
    KeyLength,
    /// a metadata entry's value type
    ValueType,
    /// the type of an array's elements
    ArrayType,
    ArrayCount,
    /// the length of a string value
    StringLength,
    TensorNameLength,
    DimensionCount,
    Dimension,
    TensorType,
    Offset,
}

/// Where one number of the header lies: `width` bytes (4 or 8, little-endian) from byte `at`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spot {
    pub part: Part,
    pub at: usize,
    pub width: usize,
}

impl Spot {
    /// Writes `value` over the number in `bytes` (its low `width` bytes).
    pub fn set(&self, bytes: &mut [u8], value: u64) {
        bytes[self.at..self.at + self.width].copy_from_slice(&value.to_le_bytes()[..self.width]);
    }
}

/// A header being written, and where its numbers are.
struct Out {
    bytes: Vec<u8>,
    spots: Vec<Spot>,
}

impl Out {
    /// The magic, version 3, and the two counts.
    fn header(tensors: usize, metadata: usize) -> Out {
        let mut out = Out { bytes: b"GGUF".to_vec(), spots: Vec::new() };
        out.number(Part::Version, &3u32.to_le_bytes());
        out.number(Part::TensorCount, &(tensors as u64).to_le_bytes());
        out.number(Part::MetadataCount, &(metadata as u64).to_le_bytes());
        out
    }

    fn number(&mut self, part: Part, le: &[u8]) {
        self.spots.push(Spot { part, at: self.bytes.len(), width: le.len() });
        self.bytes.extend(le);
    }

    fn string(&mut self, part: Part, s: &str) {
        self.number(part, &(s.len() as u64).to_le_bytes());
        self.bytes.extend(s.as_bytes());
    }

    fn value(&mut self, value: &Value) {
        let out = &mut self.bytes;
        match value {
            Value::U8(x) => out.push(*x),
            Value::I8(x) => out.extend(x.to_le_bytes()),
            Value::U16(x) => out.extend(x.to_le_bytes()),
            Value::I16(x) => out.extend(x.to_le_bytes()),
            Value::U32(x) => out.extend(x.to_le_bytes()),
            Value::I32(x) => out.extend(x.to_le_bytes()),
            Value::F32(x) => out.extend(x.to_le_bytes()),
            Value::Bool(x) => out.push(u8::from(*x)),
            Value::String(s) => self.string(Part::StringLength, s),
            Value::Array(items) => {
                // an empty array is written as an array of u8
                self.number(Part::ArrayType, &items.first().map_or(0, code).to_le_bytes());
                self.number(Part::ArrayCount, &(items.len() as u64).to_le_bytes());
                items.iter().for_each(|v| self.value(v));
            }
            Value::U64(x) => out.extend(x.to_le_bytes()),
            Value::I64(x) => out.extend(x.to_le_bytes()),
            Value::F64(x) => out.extend(x.to_le_bytes()),
        }
    }
}

/// GGUF's code of a value's type.
pub fn code(value: &Value) -> u32 {
    match value {
        Value::U8(_) => 0,
        Value::I8(_) => 1,
        Value::U16(_) => 2,
        Value::I16(_) => 3,
        Value::U32(_) => 4,
        Value::I32(_) => 5,
        Value::F32(_) => 6,
        Value::Bool(_) => 7,
        Value::String(_) => 8,
        Value::Array(_) => 9,
        Value::U64(_) => 10,
        Value::I64(_) => 11,
        Value::F64(_) => 12,
    }
}

fn kind_code(kind: TensorType) -> u32 {
    match kind {
        TensorType::F32 => 0,
        TensorType::F16 => 1,
        TensorType::Q4_1 => 3,
        TensorType::Q8_0 => 8,
    }
}

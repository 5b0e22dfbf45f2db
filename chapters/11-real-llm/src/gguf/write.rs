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
        let alignment = self.alignment.unwrap_or(super::DEFAULT_ALIGNMENT) as usize;
        let mut out = b"GGUF".to_vec();
        out.extend(3u32.to_le_bytes());
        out.extend((self.tensors.len() as u64).to_le_bytes());
        out.extend((self.metadata.len() as u64).to_le_bytes());
        for (key, value) in &self.metadata {
            string(&mut out, key);
            out.extend(code(value).to_le_bytes());
            write_value(&mut out, value);
        }
        let mut offset = 0usize;
        let mut data = Vec::new();
        for (name, dims, kind, bytes) in &self.tensors {
            string(&mut out, name);
            out.extend((dims.len() as u32).to_le_bytes());
            dims.iter().for_each(|d| out.extend(d.to_le_bytes()));
            out.extend(kind_code(*kind).to_le_bytes());
            out.extend((offset as u64).to_le_bytes());
            data.extend(bytes);
            offset += bytes.len();
            let padded = offset.div_ceil(alignment) * alignment;
            data.resize(data.len() + padded - offset, 0);
            offset = padded;
        }
        out.resize(out.len().div_ceil(alignment) * alignment, 0);
        out.extend(data);
        out
    }
}

fn string(out: &mut Vec<u8>, s: &str) {
    out.extend((s.len() as u64).to_le_bytes());
    out.extend(s.as_bytes());
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

fn write_value(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::U8(x) => out.push(*x),
        Value::I8(x) => out.extend(x.to_le_bytes()),
        Value::U16(x) => out.extend(x.to_le_bytes()),
        Value::I16(x) => out.extend(x.to_le_bytes()),
        Value::U32(x) => out.extend(x.to_le_bytes()),
        Value::I32(x) => out.extend(x.to_le_bytes()),
        Value::F32(x) => out.extend(x.to_le_bytes()),
        Value::Bool(x) => out.push(u8::from(*x)),
        Value::String(s) => string(out, s),
        Value::Array(items) => {
            // an empty array is written as an array of u8
            out.extend(items.first().map_or(0, code).to_le_bytes());
            out.extend((items.len() as u64).to_le_bytes());
            items.iter().for_each(|v| write_value(out, v));
        }
        Value::U64(x) => out.extend(x.to_le_bytes()),
        Value::I64(x) => out.extend(x.to_le_bytes()),
        Value::F64(x) => out.extend(x.to_le_bytes()),
    }
}

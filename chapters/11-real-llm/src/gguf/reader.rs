//! Reading a GGUF file: the header, the metadata, the tensor infos, and where each tensor's data
//! lies. Every count and length is checked against the bytes left, and every allocation charged
//! to the memory budget, before anything is allocated; arrays nest at most
//! [`MAX_ARRAY_DEPTH`] levels.

use super::error::{Field, GgufError};
use super::limits::{Budget, MAX_ARRAY_DEPTH};
use super::types::TensorType;
use super::value::Value;
use std::mem::size_of;

/// Reads little-endian numbers and strings from the file's bytes, naming the field on error, and
/// charges what it allocates to the file's memory budget.
pub(super) struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    pub(super) budget: Budget,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Cursor { bytes, pos: 0, budget: Budget::for_file(bytes.len()) }
    }

    pub(super) fn pos(&self) -> usize {
        self.pos
    }

    fn left(&self) -> u64 {
        (self.bytes.len() - self.pos) as u64
    }

    fn take(&mut self, n: u64, field: Field<'_>) -> Result<&'a [u8], GgufError> {
        if n > self.left() {
            return Err(GgufError::Truncated { field: field.to_string(), at: self.pos, needed: n });
        }
        let out = &self.bytes[self.pos..self.pos + n as usize];
        self.pos += n as usize;
        Ok(out)
    }

    fn array<const N: usize>(&mut self, field: Field<'_>) -> Result<[u8; N], GgufError> {
        Ok(self.take(N as u64, field)?.try_into().expect("take returned N bytes"))
    }

    pub(super) fn u32(&mut self, field: Field<'_>) -> Result<u32, GgufError> {
        self.array(field).map(u32::from_le_bytes)
    }

    pub(super) fn u64(&mut self, field: Field<'_>) -> Result<u64, GgufError> {
        self.array(field).map(u64::from_le_bytes)
    }

    /// A count of items of at least `min_bytes` each in the file, refused if the rest of the file
    /// could not hold them, and of `memory_bytes` each in memory, charged to the budget: so a
    /// count never allocates more than the file's size justifies.
    pub(super) fn count(
        &mut self,
        field: Field<'_>,
        min_bytes: u64,
        memory_bytes: usize,
    ) -> Result<u64, GgufError> {
        let count = self.u64(field)?;
        let left = self.left();
        if count.checked_mul(min_bytes).is_none_or(|need| need > left) {
            let field = field.to_string();
            return Err(GgufError::CountTooLarge { field, count, min_bytes, left });
        }
        self.budget.charge(count, memory_bytes, field)?;
        Ok(count)
    }

    /// A GGUF string: a u64 length, then that many bytes of UTF-8.
    pub(super) fn string(&mut self, field: Field<'_>) -> Result<String, GgufError> {
        let len = self.u64(field)?;
        let at = self.pos;
        let bytes = self.take(len, field)?;
        self.budget.charge(len, 1, field)?;
        String::from_utf8(bytes.to_vec())
            .map_err(|_| GgufError::NotUtf8 { field: field.to_string(), at })
    }

    /// One value of type `code`, inside `depth` arrays.
    pub(super) fn value(
        &mut self,
        code: u32,
        field: Field<'_>,
        depth: usize,
    ) -> Result<Value, GgufError> {
        Ok(match code {
            0 => Value::U8(self.array::<1>(field)?[0]),
            1 => Value::I8(self.array::<1>(field)?[0] as i8),
            2 => Value::U16(u16::from_le_bytes(self.array(field)?)),
            3 => Value::I16(i16::from_le_bytes(self.array(field)?)),
            4 => Value::U32(self.u32(field)?),
            5 => Value::I32(i32::from_le_bytes(self.array(field)?)),
            6 => Value::F32(f32::from_le_bytes(self.array(field)?)),
            7 => Value::Bool(self.array::<1>(field)?[0] != 0),
            8 => Value::String(self.string(field)?),
            9 => {
                // each level is one call deeper: the limit bounds the stack
                if depth == MAX_ARRAY_DEPTH {
                    let field = field.to_string();
                    return Err(GgufError::TooDeep { field, limit: MAX_ARRAY_DEPTH });
                }
                let inner = self.u32(field)?;
                let min = Value::min_bytes(inner).ok_or_else(|| GgufError::UnknownValueType {
                    field: field.to_string(),
                    code: inner,
                })?;
                let n = self.count(field, min, size_of::<Value>())?;
                let mut items = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    items.push(self.value(inner, field, depth + 1)?);
                }
                Value::Array(items)
            }
            10 => Value::U64(self.u64(field)?),
            11 => Value::I64(i64::from_le_bytes(self.array(field)?)),
            12 => Value::F64(f64::from_le_bytes(self.array(field)?)),
            _ => return Err(GgufError::UnknownValueType { field: field.to_string(), code }),
        })
    }
}

/// Where a tensor is and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorInfo {
    pub name: String,
    /// GGUF lists dimensions innermost first: `[576, 49152]` is 49,152 rows of 576 values, what
    /// PyTorch calls shape `(49152, 576)`.
    pub dims: Vec<u64>,
    pub kind: TensorType,
    /// from the start of the data section
    pub offset: u64,
}

impl TensorInfo {
    /// All its elements.
    pub fn elements(&self) -> u64 {
        self.dims.iter().product()
    }

    /// Its bytes in the file.
    pub fn bytes(&self) -> u64 {
        self.kind.bytes_of(self.elements())
    }
}

/// Reads one tensor info and checks its shape: one to four dimensions, none zero, at most 2^40
/// elements, rows a whole number of blocks.
pub(super) fn tensor_info(c: &mut Cursor<'_>) -> Result<TensorInfo, GgufError> {
    let name = c.string(Field::Named("a tensor's name"))?;
    let n_dims = c.u32(Field::Tensor(&name, "number of dimensions"))?;
    if !(1..=4).contains(&n_dims) {
        return Err(GgufError::BadShape { tensor: name, dims: vec![n_dims.into()] });
    }
    c.budget.charge(n_dims.into(), size_of::<u64>(), Field::Tensor(&name, "dimensions"))?;
    let mut dims = Vec::with_capacity(n_dims as usize);
    for _ in 0..n_dims {
        dims.push(c.u64(Field::Tensor(&name, "dimensions"))?);
    }
    let elements = dims.iter().try_fold(1u64, |acc, &d| acc.checked_mul(d));
    if dims.contains(&0) || elements.is_none_or(|e| e > 1 << 40) {
        return Err(GgufError::BadShape { tensor: name, dims });
    }
    let code = c.u32(Field::Tensor(&name, "type"))?;
    let Some(kind) = TensorType::from_code(code) else {
        return Err(GgufError::UnknownTensorType { tensor: name, code });
    };
    if dims[0] % kind.block_elements() != 0 {
        let block = kind.block_elements();
        return Err(GgufError::NotWholeBlocks { tensor: name, elements: dims[0], block });
    }
    let offset = c.u64(Field::Tensor(&name, "data offset"))?;
    Ok(TensorInfo { name, dims, kind, offset })
}

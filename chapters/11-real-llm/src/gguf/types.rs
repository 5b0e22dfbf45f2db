//! The tensor types this chapter reads: how many elements a block holds and how many bytes it
//! takes (ggml's `GGML_TYPE_*` codes).

/// A tensor's storage type in a GGUF file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TensorType {
    F32,
    F16,
    /// blocks of 32: an f16 scale `d`, an f16 minimum `m`, 32 four-bit values (`x = d·q + m`)
    Q4_1,
    /// blocks of 32: an f16 scale `d`, 32 signed bytes (`x = d·q`)
    Q8_0,
}

impl TensorType {
    /// The type of ggml's code, if this reader knows it.
    pub fn from_code(code: u32) -> Option<TensorType> {
        match code {
            0 => Some(TensorType::F32),
            1 => Some(TensorType::F16),
            3 => Some(TensorType::Q4_1),
            8 => Some(TensorType::Q8_0),
            _ => None,
        }
    }

    /// Elements per block: 1 for the plain floats, 32 for the quantized types.
    pub fn block_elements(self) -> u64 {
        match self {
            TensorType::F32 | TensorType::F16 => 1,
            TensorType::Q4_1 | TensorType::Q8_0 => 32,
        }
    }

    /// Bytes per block.
    pub fn block_bytes(self) -> u64 {
        match self {
            TensorType::F32 => 4,
            TensorType::F16 => 2,
            TensorType::Q4_1 => 2 + 2 + 16,
            TensorType::Q8_0 => 2 + 32,
        }
    }

    /// Bytes of `elements` elements (a whole number of blocks).
    pub fn bytes_of(self, elements: u64) -> u64 {
        elements / self.block_elements() * self.block_bytes()
    }
}

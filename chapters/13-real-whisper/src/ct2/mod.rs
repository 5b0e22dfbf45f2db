//! CTranslate2's model file, `model.bin`: a short header, then every weight of the model as a named
//! variable (its shape, its type, its bytes), then aliases (one name standing for another).
//!
//! Layout (little-endian; a string is a `u16` length that counts a closing NUL, then the bytes):
//!
//! ```text
//! u32 version (4 to 6 here)      string spec ("WhisperSpec")      u32 spec revision
//! u32 variable count, then per variable:
//!     string name   u8 rank   u32 × rank dimensions   u8 type   u32 byte count   the bytes
//! u32 alias count, then per alias:  string alias   string variable
//! ```
//!
//! The reader keeps the file's bytes and, per variable, where its data lies; it copies nothing
//! until a variable is asked for ([`ModelBin::f32s`]). Every count is checked against the bytes
//! left before anything is allocated for it, so a hostile file costs at most a small multiple of
//! its own size.

mod error;
pub mod write;

pub use error::Ct2Error;

use half::{bf16, f16};
use std::collections::HashMap;
use std::ops::Range;

/// The element types of CTranslate2's variables, by the code the file writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DType {
    F32,
    I8,
    I16,
    I32,
    F16,
    BF16,
}

impl DType {
    /// The type of a code, if the reader knows it.
    pub fn from_code(code: u8) -> Option<DType> {
        use DType::*;
        [F32, I8, I16, I32, F16, BF16].get(code as usize).copied()
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            DType::I8 => 1,
            DType::I16 | DType::F16 | DType::BF16 => 2,
            DType::F32 | DType::I32 => 4,
        }
    }
}

/// One variable: its name, shape and type, and where its bytes lie in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    pub name: String,
    pub shape: Vec<usize>,
    pub dtype: DType,
    pub data: Range<usize>,
}

/// A `model.bin`: its header, its variables and aliases, and its bytes.
#[derive(Debug, Clone)]
pub struct ModelBin {
    pub version: u32,
    /// the model's kind, such as `WhisperSpec`
    pub spec: String,
    pub revision: u32,
    pub variables: Vec<Variable>,
    /// `(alias, variable)`: Whisper's output projection is an alias of its token embedding
    pub aliases: Vec<(String, String)>,
    index: HashMap<String, usize>,
    bytes: Vec<u8>,
}

/// The smallest a variable entry can be: a one-character name with its NUL, a rank, a type and
/// a byte count.
const MIN_VARIABLE_BYTES: usize = 2 + 2 + 1 + 1 + 4;
/// The smallest an alias entry can be: two one-character names.
const MIN_ALIAS_BYTES: usize = 2 * (2 + 2);

/// Reads the file's fields in order, each checked against the bytes left.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, field: &dyn Fn() -> String) -> Result<&'a [u8], Ct2Error> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end =
            end.ok_or_else(|| Ct2Error::Truncated { field: field(), at: self.at, needed: n })?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u8(&mut self, field: &dyn Fn() -> String) -> Result<u8, Ct2Error> {
        Ok(self.take(1, field)?[0])
    }

    fn u16(&mut self, field: &dyn Fn() -> String) -> Result<u16, Ct2Error> {
        Ok(u16::from_le_bytes(self.take(2, field)?.try_into().expect("2 bytes")))
    }

    fn u32(&mut self, field: &dyn Fn() -> String) -> Result<u32, Ct2Error> {
        Ok(u32::from_le_bytes(self.take(4, field)?.try_into().expect("4 bytes")))
    }

    fn string(&mut self, field: &dyn Fn() -> String) -> Result<String, Ct2Error> {
        let at = self.at;
        let len = self.u16(field)? as usize;
        let raw = self.take(len, field)?;
        let bad = || Ct2Error::BadString { field: field(), at };
        let (&nul, text) = raw.split_last().ok_or_else(bad)?;
        if nul != 0 {
            return Err(bad());
        }
        String::from_utf8(text.to_vec()).map_err(|_| bad())
    }

    /// A count of items of at least `min_bytes` each, refused if the rest cannot hold them.
    fn count(&mut self, min_bytes: usize, field: &dyn Fn() -> String) -> Result<usize, Ct2Error> {
        let count = self.u32(field)? as usize;
        let left = self.bytes.len() - self.at;
        if count.saturating_mul(min_bytes) > left {
            return Err(Ct2Error::CountTooLarge { field: field(), count, min_bytes, left });
        }
        Ok(count)
    }
}

impl ModelBin {
    /// Reads and checks a whole file.
    // ANCHOR: parse
    pub fn parse(bytes: Vec<u8>) -> Result<ModelBin, Ct2Error> {
        let mut c = Cursor { bytes: &bytes, at: 0 };
        let version = c.u32(&|| "the format version".into())?;
        if !(4..=6).contains(&version) {
            return Err(Ct2Error::UnknownVersion(version));
        }
        let spec = c.string(&|| "the spec name".into())?;
        let revision = c.u32(&|| "the spec revision".into())?;
        let count = c.count(MIN_VARIABLE_BYTES, &|| "the variable count".into())?;
        let mut variables = Vec::with_capacity(count);
        for i in 0..count {
            let name = c.string(&|| format!("the name of variable {i}"))?;
            let field = || format!("variable {}", error::short(&name));
            let rank = c.u8(&field)? as usize;
            let shape = (0..rank)
                .map(|_| c.u32(&field).map(|d| d as usize))
                .collect::<Result<Vec<_>, _>>()?;
            let code = c.u8(&field)?;
            let dtype = DType::from_code(code)
                .ok_or_else(|| Ct2Error::UnknownType { variable: name.clone(), code })?;
            let bytes = c.u32(&field)? as usize;
            let expected = shape.iter().try_fold(dtype.size(), |n, &d| n.checked_mul(d));
            if expected != Some(bytes) {
                return Err(Ct2Error::WrongByteCount { variable: name, shape, bytes, expected });
            }
            let start = c.at;
            c.take(bytes, &field)?;
            variables.push(Variable { name, shape, dtype, data: start..c.at });
        }
        let count = c.count(MIN_ALIAS_BYTES, &|| "the alias count".into())?;
        let mut aliases = Vec::with_capacity(count);
        for i in 0..count {
            let alias = c.string(&|| format!("alias {i}"))?;
            let target = c.string(&|| format!("the variable of alias {i}"))?;
            aliases.push((alias, target));
        }
        if c.at != bytes.len() {
            return Err(Ct2Error::TrailingBytes { at: c.at, left: bytes.len() - c.at });
        }
        let index = Self::index(&variables, &aliases)?;
        Ok(ModelBin { version, spec, revision, variables, aliases, index, bytes })
    }
    // ANCHOR_END: parse

    /// Every name, variables and aliases, to its variable; a name used twice is refused.
    fn index(
        variables: &[Variable],
        aliases: &[(String, String)],
    ) -> Result<HashMap<String, usize>, Ct2Error> {
        let mut index = HashMap::with_capacity(variables.len() + aliases.len());
        for (i, v) in variables.iter().enumerate() {
            if index.insert(v.name.clone(), i).is_some() {
                return Err(Ct2Error::Duplicate { name: v.name.clone() });
            }
        }
        let variable_count = index.len();
        for (alias, target) in aliases {
            // a target must be a variable, not another alias
            let Some(i) = index.get(target).copied().filter(|&i| variables[i].name == *target)
            else {
                let (alias, target) = (alias.clone(), target.clone());
                return Err(Ct2Error::DanglingAlias { alias, target });
            };
            if index.insert(alias.clone(), i).is_some() {
                return Err(Ct2Error::Duplicate { name: alias.clone() });
            }
        }
        debug_assert!(index.len() == variable_count + aliases.len());
        Ok(index)
    }

    /// Reads a file from disk; the message names the path.
    pub fn read(path: &std::path::Path) -> Result<ModelBin, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        ModelBin::parse(bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The variable a name (or an alias) stands for.
    pub fn variable(&self, name: &str) -> Option<&Variable> {
        self.index.get(name).map(|&i| &self.variables[i])
    }

    /// The raw bytes of a variable.
    pub fn data(&self, v: &Variable) -> &[u8] {
        &self.bytes[v.data.clone()]
    }

    /// A floating-point variable of the given shape as `f32` (row-major, as stored).
    pub fn f32s(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>, Ct2Error> {
        let missing = || Ct2Error::Missing {
            variable: name.to_owned(),
            wanted: format!("a float tensor of shape {shape:?}"),
        };
        let v = self.variable(name).filter(|v| v.shape == shape).ok_or_else(missing)?;
        let raw = self.data(v);
        let two = |b: &[u8]| u16::from_le_bytes([b[0], b[1]]);
        Ok(match v.dtype {
            DType::F32 => {
                raw.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().expect("4"))).collect()
            }
            DType::F16 => raw.chunks_exact(2).map(|b| f16::from_bits(two(b)).to_f32()).collect(),
            DType::BF16 => raw.chunks_exact(2).map(|b| bf16::from_bits(two(b)).to_f32()).collect(),
            _ => return Err(missing()),
        })
    }

    /// An integer scalar (a shape-`[]` variable of an integer type), such as `decoder/num_heads`.
    pub fn scalar(&self, name: &str) -> Result<i64, Ct2Error> {
        let missing =
            || Ct2Error::Missing { variable: name.to_owned(), wanted: "an integer scalar".into() };
        let v = self.variable(name).filter(|v| v.shape.is_empty()).ok_or_else(missing)?;
        let raw = self.data(v);
        Ok(match v.dtype {
            DType::I8 => raw[0] as i8 as i64,
            DType::I16 => i16::from_le_bytes([raw[0], raw[1]]) as i64,
            DType::I32 => i32::from_le_bytes(raw.try_into().expect("4 bytes")) as i64,
            _ => return Err(missing()),
        })
    }

    /// The parameters the file holds: the elements of its floating-point variables.
    pub fn parameters(&self) -> usize {
        (self.variables.iter())
            .filter(|v| matches!(v.dtype, DType::F32 | DType::F16 | DType::BF16))
            .map(|v| v.shape.iter().product::<usize>())
            .sum()
    }
}

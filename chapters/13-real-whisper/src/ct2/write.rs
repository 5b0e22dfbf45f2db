//! Writes small `model.bin` files, for the tests and the fuzzing: the same layout the reader reads
//! (the module above describes it).

use super::DType;

/// A file being built: call [`Builder::variable`] and [`Builder::alias`], then [`Builder::bytes`].
#[derive(Debug, Clone)]
pub struct Builder {
    version: u32,
    spec: String,
    revision: u32,
    variables: Vec<(String, Vec<u32>, u8, Vec<u8>)>,
    aliases: Vec<(String, String)>,
}

/// A string as the file writes it: its length with the NUL, the bytes, the NUL.
pub fn string(s: &str) -> Vec<u8> {
    let mut out = ((s.len() + 1) as u16).to_le_bytes().to_vec();
    out.extend(s.as_bytes());
    out.push(0);
    out
}

impl Builder {
    /// An empty file of format `version` for `spec`.
    pub fn new(version: u32, spec: &str) -> Builder {
        Builder { version, spec: spec.into(), revision: 1, variables: vec![], aliases: vec![] }
    }

    /// Adds a variable with its bytes as given (which may disagree with the shape, on purpose).
    pub fn raw(mut self, name: &str, shape: &[u32], code: u8, data: Vec<u8>) -> Builder {
        self.variables.push((name.into(), shape.to_vec(), code, data));
        self
    }

    /// Adds an `f32` or `f16` variable holding `values`.
    pub fn variable(self, name: &str, shape: &[u32], dtype: DType, values: &[f32]) -> Builder {
        let data = match dtype {
            DType::F32 => values.iter().flat_map(|v| v.to_le_bytes()).collect(),
            DType::F16 => values
                .iter()
                .flat_map(|&v| half::f16::from_f32(v).to_bits().to_le_bytes())
                .collect(),
            other => panic!("Builder::variable writes f32 and f16, not {other:?}"),
        };
        let code = if dtype == DType::F32 { 0 } else { 4 };
        self.raw(name, shape, code, data)
    }

    /// Adds an `i16` scalar.
    pub fn scalar(self, name: &str, value: i16) -> Builder {
        self.raw(name, &[], 2, value.to_le_bytes().to_vec())
    }

    /// Adds an alias.
    pub fn alias(mut self, alias: &str, variable: &str) -> Builder {
        self.aliases.push((alias.into(), variable.into()));
        self
    }

    /// The file's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = self.version.to_le_bytes().to_vec();
        out.extend(string(&self.spec));
        out.extend(self.revision.to_le_bytes());
        out.extend((self.variables.len() as u32).to_le_bytes());
        for (name, shape, code, data) in &self.variables {
            out.extend(string(name));
            out.push(shape.len() as u8);
            shape.iter().for_each(|d| out.extend(d.to_le_bytes()));
            out.push(*code);
            out.extend((data.len() as u32).to_le_bytes());
            out.extend(data);
        }
        out.extend((self.aliases.len() as u32).to_le_bytes());
        for (alias, target) in &self.aliases {
            out.extend(string(alias));
            out.extend(string(target));
        }
        out
    }
}

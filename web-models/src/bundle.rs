//! A model's files as the page hands them over: fetched one by one, then put in one buffer,
//! each as its name's length (4 bytes, little-endian), the name (UTF-8, the file's path in the
//! model's folder), its length (4 bytes) and its bytes. The module takes each file out once.

use std::collections::BTreeMap;

/// The files of one bundle, by name.
#[derive(Debug, Default)]
pub struct Bundle {
    files: BTreeMap<String, Vec<u8>>,
}

impl Bundle {
    /// Reads the buffer; an error names what is cut short or not UTF-8.
    pub fn read(mut bytes: &[u8]) -> Result<Self, String> {
        let mut files = BTreeMap::new();
        while !bytes.is_empty() {
            let name = take(&mut bytes, "a file's name")?;
            let name = String::from_utf8(name.to_vec())
                .map_err(|_| "a file's name is not UTF-8".to_string())?;
            let data = take(&mut bytes, &name)?;
            files.insert(name, data.to_vec());
        }
        Ok(Bundle { files })
    }

    /// Takes `name`'s bytes out; an error says which file the page did not send.
    pub fn take(&mut self, name: &str) -> Result<Vec<u8>, String> {
        self.files.remove(name).ok_or_else(|| format!("the page sent no file {name}"))
    }

    /// The buffer [`read`](Self::read) reads, for tests and the native side.
    pub fn write(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut out = Vec::new();
        for (name, data) in files {
            for part in [name.as_bytes(), data] {
                out.extend((part.len() as u32).to_le_bytes());
                out.extend_from_slice(part);
            }
        }
        out
    }
}

/// A length and that many bytes from the front of `bytes`.
fn take<'a>(bytes: &mut &'a [u8], what: &str) -> Result<&'a [u8], String> {
    let cut = || format!("the files are cut short in {what}");
    let (len, rest) = bytes.split_first_chunk::<4>().ok_or_else(cut)?;
    let len = u32::from_le_bytes(*len) as usize;
    let (part, rest) = rest.split_at_checked(len).ok_or_else(cut)?;
    *bytes = rest;
    Ok(part)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_round_trip_and_a_cut_bundle_is_named() {
        let buffer = Bundle::write(&[("a.json", b"{}"), ("dir/b.bin", &[1, 2, 3])]);
        let mut bundle = Bundle::read(&buffer).unwrap();
        assert_eq!(bundle.take("dir/b.bin").unwrap(), [1, 2, 3]);
        assert_eq!(bundle.take("dir/b.bin").unwrap_err(), "the page sent no file dir/b.bin");
        assert_eq!(bundle.take("a.json").unwrap(), b"{}");
        let cut = Bundle::read(&buffer[..buffer.len() - 1]).unwrap_err();
        assert_eq!(cut, "the files are cut short in dir/b.bin");
        assert_eq!(Bundle::read(&[1, 0]).unwrap_err(), "the files are cut short in a file's name");
    }
}

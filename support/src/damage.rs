//! Damage to a valid file, for the fuzz tests of the file readers (chapter 11's GGUF, chapter 13's
//! `model.bin`): random byte changes, cuts and insertions, each drawn as three numbers.

/// One edit: `(where, byte, kind)`. `where` is taken modulo the file's length at that moment;
/// `kind % 3` is 0 to overwrite that byte with `byte`, 1 to cut the file there, 2 to insert
/// `byte` there.
pub type Edit = (usize, u8, u8);

/// Applies `edits` to `bytes`, one after another.
///
/// ```
/// let mut bytes = vec![1, 2, 3, 4];
/// support::damage::apply(&mut bytes, &[(1, 9, 0), (6, 7, 2), (3, 0, 1)]);
/// // 9 overwrites index 1; 7 goes in at 6 % 4 = 2; the file is cut at 3
/// assert_eq!(bytes, [1, 9, 7]);
/// ```
pub fn apply(bytes: &mut Vec<u8>, edits: &[Edit]) {
    for &(at, byte, kind) in edits {
        let i = at % bytes.len().max(1);
        match kind % 3 {
            0 if !bytes.is_empty() => bytes[i] = byte,
            1 => bytes.truncate(i),
            _ => bytes.insert(i.min(bytes.len()), byte),
        }
    }
}

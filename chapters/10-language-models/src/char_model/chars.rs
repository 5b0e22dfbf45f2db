//! Characters as tokens: the 96 symbols of plain English text (newline and the printable ASCII
//! characters from space to `~`), and the text the chapter's model learns from.

use crate::error::CharOutOfVocab;

/// How many characters the vocabulary has: `'\n'` and `' '..='~'`.
pub const VOCAB: usize = 96;

/// The id of a character: `'\n'` is 0, `' '` is 1, ..., `'~'` is 95.
pub fn char_id(c: char) -> Result<usize, CharOutOfVocab> {
    match c {
        '\n' => Ok(0),
        ' '..='~' => Ok(c as usize - ' ' as usize + 1),
        _ => Err(CharOutOfVocab { c }),
    }
}

/// The character of an id below [`VOCAB`].
///
/// # Panics
/// If `id >= VOCAB`.
pub fn id_char(id: usize) -> char {
    assert!(id < VOCAB, "id_char: {id} is not below the vocabulary size {VOCAB}");
    if id == 0 {
        '\n'
    } else {
        char::from(b' ' + (id - 1) as u8)
    }
}

/// The ids of every character of `text`, or the first character that has none.
pub fn encode(text: &str) -> Result<Vec<usize>, CharOutOfVocab> {
    text.chars().map(char_id).collect()
}

/// The text of `ids`.
pub fn decode(ids: &[usize]) -> String {
    ids.iter().map(|&i| id_char(i)).collect()
}

/// Ambrose Bierce's *The Devil's Dictionary* (1911, public domain), as `data/README.md` says
/// how it was extracted.
pub const TEXT: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/devils_dictionary.txt"));

/// The share of the text, from its start, that the model trains on; the rest is held out.
pub const TRAIN_SHARE: f64 = 0.9;

/// The ids of the training part and of the held-out part: the text split at the first line
/// break after [`TRAIN_SHARE`] of its characters.
pub fn split() -> (Vec<usize>, Vec<usize>) {
    let ids = encode(TEXT).expect("the committed text is plain ASCII");
    let at = (ids.len() as f64 * TRAIN_SHARE) as usize;
    let at = at + ids[at..].iter().position(|&i| i == 0).map_or(0, |p| p + 1);
    let held_out = ids[at..].to_vec();
    let mut train = ids;
    train.truncate(at);
    (train, held_out)
}

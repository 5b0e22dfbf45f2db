//! Real text for the measurements: the entries of Ambrose Bierce's *The Devil's Dictionary*
//! (1911), the public-domain text chapter 10 trains on. Each entry is a definition of one to a few
//! hundred words: sentences of mixed lengths.

use ch10_language_models::char_model::chars::TEXT;

/// The dictionary's entries in order, from `ABASEMENT` on (the preface is left out), each with its
/// line breaks and runs of spaces made single spaces.
pub fn entries() -> Vec<String> {
    let start = TEXT.find("ABASEMENT").expect("the dictionary's first entry");
    TEXT[start..]
        .split("\n\n")
        .map(|entry| entry.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|entry| entry.split(' ').count() >= 3)
        .collect()
}

//! The book's index as the online book ships it, for "ask the book" in the page: the paragraphs
//! (a JSON manifest the page reads too) and their embeddings (little-endian `f32`, one row of
//! [`MINILM`]'s width per paragraph, bit for bit the native index's). The paragraphs are embedded
//! when the book is built, natively; in the browser only the question is.

use std::path::Path;

use crate::book_index::{fingerprint, Paragraph};
use crate::config::MINILM;
use crate::search::Index;

/// The manifest's file name in the site's folder.
pub const MANIFEST: &str = "book-index.json";
/// The embeddings' file name.
pub const VECTORS: &str = "book-index.f32";
/// The list of the files the page fetches (the model's and the index's), with their sizes.
pub const FILE_LIST: &str = "files.json";

/// What the page reads: the paragraphs, where to find each in its page, and what they were
/// built from.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Manifest {
    /// [`fingerprint`] of the paragraphs, checked when the embeddings are read back
    pub fingerprint: String,
    /// floats per embedding
    pub width: usize,
    pub paragraphs: Vec<Paragraph>,
    /// for each paragraph, words of its page's text that find it there ([`find_words`])
    pub find: Vec<String>,
}

/// Consecutive words in a plain paragraph (letters, digits, and a hyphen, comma, stop, colon or
/// semicolon at most) that its rendered page shows exactly as written (an apostrophe is shown
/// curly, so a run stops at it): the first run of at least
/// [`FIND_MIN`] such words, up to [`FIND_MAX`], starting with a letter (a number may be the end
/// of a formula). Formulas and code are rendered otherwise, so a run stops at them. Empty when
/// the paragraph has no such run.
pub fn find_words(text: &str) -> String {
    let plain = |w: &str| {
        w.chars().all(|c| c.is_alphanumeric() || matches!(c, ',' | '.' | '-' | ';' | ':'))
    };
    let mut run: Vec<&str> = Vec::new();
    for word in text.split_whitespace() {
        let starts = !run.is_empty() || word.starts_with(char::is_alphabetic);
        if plain(word) && starts {
            run.push(word);
            if run.len() == FIND_MAX {
                break;
            }
        } else if run.len() >= FIND_MIN {
            break;
        } else {
            run.clear();
        }
    }
    if run.len() >= FIND_MIN {
        run.join(" ")
    } else {
        String::new()
    }
}

/// The fewest words [`find_words`] gives (fewer could be found elsewhere on the page first).
pub const FIND_MIN: usize = 4;
/// The most words [`find_words`] gives.
pub const FIND_MAX: usize = 8;

/// Writes `index` into `dir` as [`MANIFEST`] and [`VECTORS`].
pub fn write(index: &Index, dir: &Path) -> Result<(), String> {
    let manifest = Manifest {
        fingerprint: index.fingerprint.clone(),
        width: MINILM.d_model,
        paragraphs: index.paragraphs.clone(),
        find: index.paragraphs.iter().map(|p| find_words(&p.text)).collect(),
    };
    let json = serde_json::to_string(&manifest).map_err(|e| e.to_string())?;
    let bytes: Vec<u8> = index.vectors.iter().flatten().flat_map(|x| x.to_le_bytes()).collect();
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (name, data) in [(MANIFEST, json.as_bytes()), (VECTORS, &bytes[..])] {
        let path = dir.join(name);
        support::saved::save_bytes(&path, data).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// The index [`write`] wrote, from the two files' bytes; an error names what does not fit.
pub fn read(manifest: &[u8], vectors: &[u8]) -> Result<Index, String> {
    let manifest: Manifest = serde_json::from_slice(manifest)
        .map_err(|e| format!("{MANIFEST}: not the book's index ({e})"))?;
    let (n, width) = (manifest.paragraphs.len(), manifest.width);
    if width != MINILM.d_model {
        return Err(format!("{MANIFEST}: embeddings of {width} floats, not {}", MINILM.d_model));
    }
    if vectors.len() != n * width * 4 {
        return Err(format!(
            "{VECTORS}: {} bytes, but {n} paragraphs of {width} floats take {}",
            vectors.len(),
            n * width * 4
        ));
    }
    if fingerprint(&manifest.paragraphs) != manifest.fingerprint {
        return Err(format!("{MANIFEST}: its paragraphs are not the ones it was built from"));
    }
    let floats: Vec<f32> =
        vectors.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    let vectors = floats.chunks(width).map(<[f32]>::to_vec).collect();
    Ok(Index { fingerprint: manifest.fingerprint, paragraphs: manifest.paragraphs, vectors })
}

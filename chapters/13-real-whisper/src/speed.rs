//! What a transcription costs on the fast path, stage by stage: the spectrogram, the encoder, the
//! cross-attention's keys and values, and the decoding.

use serde::Serialize;
use support::clock::{now, seconds_since};

use crate::config::WhisperConfig;
use crate::decode::greedy_loop;
use crate::fast::FastWhisper;
use crate::mel::{self, Padding};
use crate::tokenizer::Specials;

/// Seconds spent in each stage of one transcription.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Stages {
    pub spectrogram: f64,
    pub encoder: f64,
    /// the cross-attention's keys and values, projected once per block
    pub cross: f64,
    /// every decoder step and the choice of each token
    pub decoding: f64,
}

impl Stages {
    pub fn total(&self) -> f64 {
        self.spectrogram + self.encoder + self.cross + self.decoding
    }

    /// The sum of two runs' stages.
    pub fn plus(self, o: Stages) -> Stages {
        Stages {
            spectrogram: self.spectrogram + o.spectrogram,
            encoder: self.encoder + o.encoder,
            cross: self.cross + o.cross,
            decoding: self.decoding + o.decoding,
        }
    }
}

/// What the fast path gives: the tokens written, what the encoder heard (`1500 × 384`) and how
/// many 10 ms frames held speech.
pub type FastRun = (Vec<u32>, Vec<f32>, usize);

/// Transcribes `samples` on the fast path `fast`, decoding with Whisper's rules (`specials`,
/// `config`), timing each stage where there is a clock (in a page's WebAssembly every stage reads
/// 0, and the page times its call itself).
/// [`Transcriber::timed_fast`](crate::Transcriber::timed_fast) calls it with a transcriber's parts.
pub fn timed_fast(
    fast: &FastWhisper,
    specials: Specials,
    config: &WhisperConfig,
    samples: &[f32],
    padding: Padding,
) -> Result<(FastRun, Stages), String> {
    let clock = now();
    let (mel, speech_frames) = mel::spectrogram(samples, padding)?;
    let spectrogram = seconds_since(clock);
    let clock = now();
    let audio = fast.encode(&mel);
    let encoder = seconds_since(clock);
    let clock = now();
    let mut decoding = fast.start(&audio);
    let cross = seconds_since(clock);
    let clock = now();
    let (_, tokens) = greedy_loop(specials, config, |ids| decoding.step(ids));
    let decoding = seconds_since(clock);
    Ok(((tokens, audio, speech_frames), Stages { spectrogram, encoder, cross, decoding }))
}

//! Samples in, text out: the spectrogram, the encoder, greedy decoding, the tokenizer.

use dfdx::prelude::*;

use crate::config::{WhisperConfig, HEADS, WIDTH};
use crate::ct2::ModelBin;
use crate::decode::{greedy, Greedy};
use crate::fast::FastWhisper;
use crate::files::ModelFiles;
use crate::mel::{spectrogram, Padding};
use crate::model::decoder::Hidden;
use crate::model::Whisper;
use crate::speed::{timed_fast, FastRun, Stages};
use crate::timing::{align, forced, Alignment, Word};
use crate::tokenizer::WhisperTokenizer;

/// Whisper tiny.en with its tokenizer and configuration.
#[derive(Clone, Debug)]
pub struct Transcriber<Dev: Device<f32>> {
    pub model: Whisper<Dev>,
    pub tokenizer: WhisperTokenizer,
    pub config: WhisperConfig,
    /// the same weights packed for the fast path
    pub fast: FastWhisper,
}

/// A transcript: the token ids written, their text, and how greedy decoding got there.
#[derive(Clone, Debug)]
pub struct Transcript<Dev: Device<f32>> {
    pub tokens: Vec<u32>,
    pub text: String,
    /// the prompt, the tokens and each step's cross-attention weights (none on the fast path)
    pub greedy: Greedy<Dev>,
    /// what the encoder heard, `(1, 1500, 384)`
    pub audio: Hidden<Dev>,
    /// 10 ms frames that hold the clip's samples (the rest of the 30 s is padding)
    pub speech_frames: usize,
}

impl<Dev: Device<f32>> Transcriber<Dev> {
    /// Reads the model's files.
    pub fn load(dev: &Dev, files: &ModelFiles) -> Result<Self, String> {
        let bin = ModelBin::read(&files.path("model.bin"))?;
        let model = Whisper::load(dev, &bin)?;
        let tokenizer = WhisperTokenizer::parse(&files.read_text("tokenizer.json")?)?;
        let config = WhisperConfig::parse(&files.read_text("config.json")?)?;
        let fast = FastWhisper::new(&model, ch08_efficient::fast::Isa::chosen());
        Ok(Transcriber { model, tokenizer, config, fast })
    }

    /// The prompt every transcript starts from: `<|startoftranscript|><|notimestamps|>`.
    pub fn prompt(&self) -> Vec<u32> {
        vec![self.tokenizer.specials.start, self.tokenizer.specials.no_timestamps]
    }

    /// The transcript of up to 30 seconds of 16 kHz samples, the spectrogram padded as Whisper's
    /// `transcribe()` pads it ([`Padding::Zeros`]).
    pub fn transcribe(&self, samples: &[f32]) -> Result<Transcript<Dev>, String> {
        self.transcribe_padded(samples, Padding::default())
    }

    /// The transcript, with the spectrogram after the speech filled as `padding` says.
    // ANCHOR: transcribe
    pub fn transcribe_padded(
        &self,
        samples: &[f32],
        padding: Padding,
    ) -> Result<Transcript<Dev>, String> {
        let (mel, speech_frames) = spectrogram(samples, padding)?;
        let (audio, _) = self.model.encode(&mel);
        let greedy = greedy(&self.model, &audio, self.tokenizer.specials, &self.config);
        let text = self.tokenizer.text(&greedy.tokens);
        Ok(Transcript { tokens: greedy.tokens.clone(), text, greedy, audio, speech_frames })
    }
    // ANCHOR_END: transcribe

    /// The same transcript on the fast path ([`FastWhisper`]): the spectrogram, the encoder and
    /// greedy decoding on plain slices. Its encoder output is kept (as a tensor) for
    /// [`words`](Transcriber::words); no step's weights are.
    // ANCHOR: transcribe_fast
    pub fn transcribe_fast(
        &self,
        samples: &[f32],
        padding: Padding,
    ) -> Result<Transcript<Dev>, String> {
        let ((tokens, encoded, speech_frames), _) = self.timed_fast(samples, padding)?;
        let text = self.tokenizer.text(&tokens);
        let positions = encoded.len() / WIDTH;
        let audio =
            self.model.tokens.device().tensor_from_vec(encoded, (1, positions, Const::<WIDTH>));
        let greedy =
            Greedy { prompt: self.prompt(), tokens: tokens.clone(), cross_weights: vec![] };
        Ok(Transcript { tokens, text, greedy, audio, speech_frames })
    }
    // ANCHOR_END: transcribe_fast

    /// The fast path's run on `samples`, each stage timed ([`timed_fast`]).
    pub fn timed_fast(
        &self,
        samples: &[f32],
        padding: Padding,
    ) -> Result<(FastRun, Stages), String> {
        timed_fast(&self.fast, self.tokenizer.specials, &self.config, samples, padding)
    }

    // ANCHOR: alignment_heads
    /// Every cross-attention head's weights while the transcript is read again whole (forced
    /// decoding, `<|startoftranscript|><|notimestamps|>` + the tokens + `<|endoftext|>`):
    /// `heads[layer * 6 + head]`, one row per token of that sequence, each over all the encoder's
    /// positions. Row `i` is where the decoder looked while predicting token `i + 1`, so
    /// [`text_rows`](crate::timing::text_rows) (from `<|notimestamps|>`'s to the last token's)
    /// predict the transcript and its end.
    pub fn cross_attention(&self, t: &Transcript<Dev>) -> (Vec<Vec<f32>>, usize, usize) {
        let forced = forced(self.tokenizer.specials, &t.tokens);
        let (_, weights) = self.model.decode_all(&forced, &t.audio);
        let (rows, positions) = (forced.len(), t.audio.shape().1);
        let heads = (weights.iter())
            .flat_map(|w| {
                let all = w.cross_attn.as_vec();
                (0..HEADS).map(move |h| {
                    let first = h * rows * positions;
                    all[first..first + rows * positions].to_vec()
                })
            })
            .collect();
        (heads, rows, positions)
    }

    /// The alignment heads' weights (those `config.json` names), from [`cross_attention`].
    ///
    /// [`cross_attention`]: Transcriber::cross_attention
    pub fn alignment_weights(&self, t: &Transcript<Dev>) -> (Vec<Vec<f32>>, usize, usize) {
        let (all, rows, positions) = self.cross_attention(t);
        let heads = (self.config.alignment_heads.iter())
            .map(|&(layer, head)| all[layer * HEADS + head].clone())
            .collect();
        (heads, rows, positions)
    }
    // ANCHOR_END: alignment_heads

    /// Each word of the transcript with its start and end, in seconds.
    // ANCHOR: words
    pub fn words(&self, t: &Transcript<Dev>) -> Vec<Word> {
        let (heads, rows, positions) = self.alignment_weights(t);
        align(&self.tokenizer, &t.tokens, &heads, (rows, positions), t.speech_frames).words
    }
    // ANCHOR_END: words

    /// The same alignment on the fast path ([`fast_alignment`]), from the transcript's tokens and
    /// what the encoder heard.
    pub fn alignment_fast(&self, t: &Transcript<Dev>) -> Alignment {
        let audio = t.audio.as_vec();
        fast_alignment(
            &self.fast,
            &self.tokenizer,
            &self.config,
            &t.tokens,
            &audio,
            t.speech_frames,
        )
    }
}

/// Each word's times on the fast path: the forced sequence read in one
/// [`step_watching`](crate::fast::FastDecoding::step_watching) that keeps the alignment heads'
/// weights, then [`align`]. `audio` is the encoder's output (`1500 × 384`).
// ANCHOR: fast_alignment
pub fn fast_alignment(
    fast: &FastWhisper,
    tokenizer: &WhisperTokenizer,
    config: &WhisperConfig,
    tokens: &[u32],
    audio: &[f32],
    speech_frames: usize,
) -> Alignment {
    let forced = forced(tokenizer.specials, tokens);
    let (_, heads) = fast.start(audio).step_watching(&forced, &config.alignment_heads);
    align(tokenizer, tokens, &heads, (forced.len(), audio.len() / WIDTH), speech_frames)
}
// ANCHOR_END: fast_alignment

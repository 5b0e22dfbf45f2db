//! Greedy decoding with Whisper's rules: the prompt, the tokens never written, the end.
//!
//! The prompt of an English-only model that is asked for text without timestamps is two tokens,
//! `<|startoftranscript|><|notimestamps|>`. Then, at every step, the most likely token is written
//! (greedy: beam 1, temperature 0), except that
//! * the 90 tokens `config.json` lists as `suppress_ids` are never written (their logits are set
//!   to minus infinity before the choice), as Whisper's decoding suppresses them by default: 6
//!   special tokens (`<|startoftranscript|>`, `<|translate|>`, `<|transcribe|>`, `<|startoflm|>`,
//!   `<|startofprev|>`, `<|nocaptions|>`) and 84 that Whisper's tokenizer calls non-speech:
//!   brackets, quotation marks and symbols that transcripts use to mark speakers and sounds, and
//!   the token holding the first two of the three UTF-8 bytes that the musical symbols ♩ to ♯
//!   share (alone and after a space);
//! * the first token is never a bare space or the end of the text (`suppress_ids_begin`), so that
//!   the model cannot give up before it has written anything;
//! * `<|endoftext|>` ends the transcript, and so does the 224th token written without it
//!   ([`MAX_SAMPLED`]: Whisper's `DecodingTask` samples at most half the decoder's 448 positions,
//!   `n_text_ctx // 2`, leaving the other half for a previous window's text as a prompt).

use dfdx::prelude::*;

use crate::config::{WhisperConfig, TEXT_POSITIONS};
use crate::model::decoder::{HeadWeights, Hidden};
use crate::model::Whisper;
use crate::tokenizer::Specials;

/// What greedy decoding wrote, and what it looked at.
#[derive(Clone, Debug)]
pub struct Greedy<Dev: Device<f32>> {
    /// the prompt
    pub prompt: Vec<u32>,
    /// the tokens written, without the final `<|endoftext|>`
    pub tokens: Vec<u32>,
    /// per step (the prompt's step first), each block's cross-attention weights,
    /// `(1, 6, tokens read in that step, 1500)`
    pub cross_weights: Vec<Vec<HeadWeights<Dev>>>,
}

/// Sets the logits of the tokens that may not be written at this step to minus infinity.
// ANCHOR: suppress
pub fn suppress(logits: &mut [f32], config: &WhisperConfig, first: bool) {
    let begin: &[u32] = if first { &config.suppress_ids_begin } else { &[] };
    for &id in config.suppress_ids.iter().chain(begin) {
        logits[id as usize] = f32::NEG_INFINITY;
    }
}
// ANCHOR_END: suppress

/// The index of the largest logit (the first, where two are equal).
pub fn argmax(logits: &[f32]) -> u32 {
    let mut best = 0;
    for (i, &l) in logits.iter().enumerate() {
        if l > logits[best] {
            best = i;
        }
    }
    best as u32
}

/// The most tokens one window's decoding writes, `<|endoftext|>` included: half the decoder's
/// positions, as Whisper's `sample_len` defaults to `n_text_ctx // 2`.
pub const MAX_SAMPLED: usize = TEXT_POSITIONS / 2;

/// Greedy decoding with Whisper's rules, on any decoder: `read` takes the tokens of a step (the
/// prompt, then one token at a time) and gives the next token's logits. Returns the prompt and
/// the tokens written.
// ANCHOR: greedy
pub fn greedy_loop(
    specials: Specials,
    config: &WhisperConfig,
    mut read: impl FnMut(&[u32]) -> Vec<f32>,
) -> (Vec<u32>, Vec<u32>) {
    let prompt = vec![specials.start, specials.no_timestamps];
    let (mut tokens, mut next, mut read_so_far) = (Vec::new(), prompt.clone(), 0);
    for _ in 0..MAX_SAMPLED {
        assert!(read_so_far + next.len() <= TEXT_POSITIONS, "past the decoder's positions");
        let mut logits = read(&next);
        read_so_far += next.len();
        suppress(&mut logits, config, tokens.is_empty());
        let token = argmax(&logits);
        if token == specials.end {
            break;
        }
        tokens.push(token);
        next = vec![token];
    }
    (prompt, tokens)
}
// ANCHOR_END: greedy

/// Writes the transcript of `audio` (the encoder's output) greedily on the book's decoder,
/// keeping every step's cross-attention weights.
pub fn greedy<Dev: Device<f32>>(
    model: &Whisper<Dev>,
    audio: &Hidden<Dev>,
    specials: Specials,
    config: &WhisperConfig,
) -> Greedy<Dev> {
    let mut decoding = model.start(audio);
    let mut cross_weights = Vec::new();
    let (prompt, tokens) = greedy_loop(specials, config, |ids| {
        let step = decoding.step(model, ids);
        cross_weights.push(step.cross_weights);
        step.logits
    });
    Greedy { prompt, tokens, cross_weights }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECIALS: Specials = Specials { end: 3, start: 1, no_timestamps: 2, timestamp_begin: 4 };

    /// A decoder that always prefers `token` (and `<|endoftext|>` from step `end_at` on).
    fn decoding(token: u32, end_at: usize) -> (Vec<u32>, Vec<u32>) {
        let config = WhisperConfig {
            alignment_heads: vec![],
            suppress_ids: vec![],
            suppress_ids_begin: vec![SPECIALS.end],
        };
        let mut step = 0;
        greedy_loop(SPECIALS, &config, |_| {
            step += 1;
            let mut logits = vec![0.0; 8];
            logits[if step > end_at { SPECIALS.end } else { token } as usize] = 1.0;
            logits
        })
    }

    #[test]
    fn decoding_stops_after_224_tokens() {
        assert_eq!(MAX_SAMPLED, 224);
        let (prompt, tokens) = decoding(5, usize::MAX);
        assert_eq!(prompt, [SPECIALS.start, SPECIALS.no_timestamps]);
        assert_eq!((tokens.len(), tokens[223]), (224, 5));
        // and at the end of the text, which is not written
        assert_eq!(decoding(6, 4).1, [6, 6, 6, 6]);
    }
}

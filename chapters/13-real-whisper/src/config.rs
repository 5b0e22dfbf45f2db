//! Whisper tiny.en's sizes, and what its `config.json` adds: the tokens never to write and the
//! cross-attention heads that follow the speech in time.

use serde::Deserialize;

/// The sizes of tiny.en, fixed in the types: 80 mel bands in, a width of 384, 6 heads of 64, a
/// feed-forward width of 1,536, 4 encoder and 4 decoder blocks, 1,500 audio positions (30 s after
/// the second convolution halves the 3,000 frames), 448 text positions and 51,864 tokens.
pub const N_MELS: usize = 80;
pub const WIDTH: usize = 384;
pub const HEADS: usize = 6;
pub const HEAD_DIM: usize = 64;
pub const FF: usize = 1_536;
pub const ENCODER_LAYERS: usize = 4;
pub const DECODER_LAYERS: usize = 4;
pub const AUDIO_POSITIONS: usize = 1_500;
pub const TEXT_POSITIONS: usize = 448;
pub const VOCAB: usize = 51_864;

/// The model's `config.json`, as CTranslate2's converter writes it.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct WhisperConfig {
    /// `(decoder layer, head)`: the cross-attention heads whose weights line up with the speech
    pub alignment_heads: Vec<(usize, usize)>,
    /// tokens never written: 6 special tokens and 84 non-speech ones (brackets, quotation marks,
    /// symbols that transcripts use to mark speakers and sounds, the musical symbols' first bytes)
    pub suppress_ids: Vec<u32>,
    /// tokens never written first: a space alone and the end of the text
    pub suppress_ids_begin: Vec<u32>,
}

impl WhisperConfig {
    /// Reads `config.json`'s text; every head must exist in tiny.en's decoder.
    pub fn parse(text: &str) -> Result<WhisperConfig, String> {
        let config: WhisperConfig =
            serde_json::from_str(text).map_err(|e| format!("config.json: {e}"))?;
        if let Some(&(l, h)) =
            config.alignment_heads.iter().find(|&&(l, h)| l >= DECODER_LAYERS || h >= HEADS)
        {
            return Err(format!(
                "config.json: alignment head ({l}, {h}) is not in a decoder of {DECODER_LAYERS} \
                 layers of {HEADS} heads"
            ));
        }
        Ok(config)
    }
}

//! The WAV files Whisper hears: 16-bit PCM, one channel, 16,000 samples a second. Anything else is
//! refused with a one-line error saying what the file is and what would do; nothing is resampled
//! or mixed down behind the reader's back.
//!
//! A WAV file is a RIFF container: `RIFF`, a size, `WAVE`, then chunks, each a four-letter id, a
//! `u32` size and its bytes (padded to an even length). The `fmt ` chunk says how the samples are
//! stored; the `data` chunk holds them, little-endian. Other chunks (`LIST` and the like) are
//! skipped.

use std::fmt;

/// The sample rate Whisper was trained on.
pub const SAMPLE_RATE: u32 = 16_000;

/// Why a file is not a WAV file Whisper can hear.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WavError {
    /// The file does not start with `RIFF....WAVE`.
    NotWav,
    /// A chunk runs past the end of the file, or the file ends inside a chunk header.
    Truncated { chunk: String, at: usize },
    /// No `fmt ` chunk before the `data` chunk.
    NoFormat,
    /// No `data` chunk.
    NoData,
    /// Samples that are not integer PCM (format code 3 is float, for instance).
    NotPcm { format: u16 },
    /// Not 16 bits a sample.
    Bits(u16),
    /// More than one channel.
    Channels(u16),
    /// Another sample rate.
    Rate(u32),
    /// A `data` chunk with no samples, or an odd number of bytes.
    Empty,
}

impl fmt::Display for WavError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let want = "Whisper hears 16-bit PCM, mono, 16000 Hz (ffmpeg -i IN -ac 1 -ar 16000 \
                    -c:a pcm_s16le OUT.wav)";
        match self {
            WavError::NotWav => write!(f, "not a WAV file (no RIFF/WAVE header); {want}"),
            WavError::Truncated { chunk, at } => {
                write!(f, "the WAV file ends inside its {chunk:?} chunk (at byte {at})")
            }
            WavError::NoFormat => write!(f, "the WAV file has no \"fmt \" chunk before its data"),
            WavError::NoData => write!(f, "the WAV file has no \"data\" chunk"),
            WavError::NotPcm { format } => {
                write!(f, "the WAV file's samples are of format {format}, not PCM (1); {want}")
            }
            WavError::Bits(bits) => write!(f, "the WAV file has {bits}-bit samples; {want}"),
            WavError::Channels(n) => write!(f, "the WAV file has {n} channels; {want}"),
            WavError::Rate(rate) => write!(f, "the WAV file is sampled at {rate} Hz; {want}"),
            WavError::Empty => write!(f, "the WAV file holds no samples"),
        }
    }
}

impl std::error::Error for WavError {}

/// The samples of a WAV file as `f32` in `[-1, 1)`: each 16-bit value divided by 32,768, as
/// Whisper's own loader does.
// ANCHOR: read_wav
pub fn parse_wav(bytes: &[u8]) -> Result<Vec<f32>, WavError> {
    if bytes.len() < 12 || &bytes[0..4] != b"RIFF" || &bytes[8..12] != b"WAVE" {
        return Err(WavError::NotWav);
    }
    let (mut at, mut format) = (12, None);
    while at < bytes.len() {
        let header = bytes.get(at..at + 8);
        let chunk = String::from_utf8_lossy(&bytes[at..(at + 4).min(bytes.len())]).into_owned();
        let header = header.ok_or(WavError::Truncated { chunk: chunk.clone(), at })?;
        let size = u32::from_le_bytes(header[4..8].try_into().expect("4 bytes")) as usize;
        let body = (bytes.get(at + 8..).and_then(|rest| rest.get(..size)))
            .ok_or(WavError::Truncated { chunk: chunk.clone(), at })?;
        match &header[0..4] {
            b"fmt " => format = Some(check_format(body, at)?),
            b"data" if format.is_none() => return Err(WavError::NoFormat),
            b"data" if body.is_empty() || body.len() % 2 == 1 => return Err(WavError::Empty),
            b"data" => {
                let sample = |b: &[u8]| i16::from_le_bytes([b[0], b[1]]) as f32 / 32_768.0;
                return Ok(body.chunks_exact(2).map(sample).collect());
            }
            _ => {}
        }
        at += 8 + size + size % 2;
    }
    Err(WavError::NoData)
}
// ANCHOR_END: read_wav

/// Checks a `fmt ` chunk: PCM (plain, or inside `WAVE_FORMAT_EXTENSIBLE`), 16 bits, one channel,
/// 16 kHz.
fn check_format(body: &[u8], at: usize) -> Result<(), WavError> {
    if body.len() < 16 {
        return Err(WavError::Truncated { chunk: "fmt ".into(), at });
    }
    let u16_at = |i: usize| u16::from_le_bytes([body[i], body[i + 1]]);
    let mut format = u16_at(0);
    // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the sub-format GUID
    if format == 0xFFFE && body.len() >= 26 {
        format = u16_at(24);
    }
    let (channels, bits) = (u16_at(2), u16_at(14));
    let rate = u32::from_le_bytes(body[4..8].try_into().expect("4 bytes"));
    match () {
        _ if format != 1 => Err(WavError::NotPcm { format }),
        _ if bits != 16 => Err(WavError::Bits(bits)),
        _ if channels != 1 => Err(WavError::Channels(channels)),
        _ if rate != SAMPLE_RATE => Err(WavError::Rate(rate)),
        _ => Ok(()),
    }
}

/// Reads a WAV file from disk; the message names the path.
pub fn read_wav(path: &std::path::Path) -> Result<Vec<f32>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_wav(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// A WAV file's bytes for `samples` (16-bit PCM, mono, 16 kHz): for the tests and the examples.
pub fn wav_bytes(samples: &[i16]) -> Vec<u8> {
    let data = (samples.len() * 2) as u32;
    let mut out = b"RIFF".to_vec();
    out.extend((36 + data).to_le_bytes());
    out.extend(b"WAVEfmt ");
    out.extend(16u32.to_le_bytes());
    out.extend(1u16.to_le_bytes()); // PCM
    out.extend(1u16.to_le_bytes()); // one channel
    out.extend(SAMPLE_RATE.to_le_bytes());
    out.extend((SAMPLE_RATE * 2).to_le_bytes()); // bytes a second
    out.extend(2u16.to_le_bytes()); // bytes a frame
    out.extend(16u16.to_le_bytes());
    out.extend(b"data");
    out.extend(data.to_le_bytes());
    samples.iter().for_each(|s| out.extend(s.to_le_bytes()));
    out
}

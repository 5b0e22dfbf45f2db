//! The WAV reader: the clips' lengths, a file written and read back, and a one-line error for each
//! kind of file Whisper cannot hear.

use ch13_real_whisper::clips::CLIPS;
use ch13_real_whisper::wav::{parse_wav, wav_bytes, WavError};

#[test]
fn the_clips_are_3_to_7_seconds_of_16_khz_speech() {
    let lengths: Vec<usize> = CLIPS.iter().map(|c| c.samples().len()).collect();
    assert_eq!(lengths, [113_600, 47_840, 84_800, 96_800, 52_640]);
    let seconds: Vec<f64> = lengths.iter().map(|&n| n as f64 / 16_000.0).collect();
    assert_eq!(seconds, [7.1, 2.99, 5.3, 6.05, 3.29]);
}

#[test]
fn samples_are_divided_by_32768() {
    let samples = parse_wav(&wav_bytes(&[0, 16_384, -32_768, 32_767])).unwrap();
    assert_eq!(samples, [0.0, 0.5, -1.0, 32_767.0 / 32_768.0]);
}

/// A header with other format fields (the data chunk empty unless given).
fn with_format(format: u16, channels: u16, rate: u32, bits: u16) -> Vec<u8> {
    let mut bytes = wav_bytes(&[1, 2, 3]);
    bytes[20..22].copy_from_slice(&format.to_le_bytes());
    bytes[22..24].copy_from_slice(&channels.to_le_bytes());
    bytes[24..28].copy_from_slice(&rate.to_le_bytes());
    bytes[34..36].copy_from_slice(&bits.to_le_bytes());
    bytes
}

#[test]
fn each_file_whisper_cannot_hear_gets_one_line() {
    let want = "Whisper hears 16-bit PCM, mono, 16000 Hz (ffmpeg -i IN -ac 1 -ar 16000 -c:a \
                pcm_s16le OUT.wav)";
    let cases: Vec<(Vec<u8>, WavError, String)> = vec![
        (
            b"ID3\x03 an mp3".to_vec(),
            WavError::NotWav,
            format!("not a WAV file (no RIFF/WAVE header); {want}"),
        ),
        (
            with_format(1, 2, 16_000, 16),
            WavError::Channels(2),
            format!("the WAV file has 2 channels; {want}"),
        ),
        (
            with_format(1, 1, 44_100, 16),
            WavError::Rate(44_100),
            format!("the WAV file is sampled at 44100 Hz; {want}"),
        ),
        (
            with_format(1, 1, 16_000, 8),
            WavError::Bits(8),
            format!("the WAV file has 8-bit samples; {want}"),
        ),
        (
            with_format(3, 1, 16_000, 32),
            WavError::NotPcm { format: 3 },
            format!("the WAV file's samples are of format 3, not PCM (1); {want}"),
        ),
        (wav_bytes(&[]), WavError::Empty, "the WAV file holds no samples".into()),
        (
            wav_bytes(&[1, 2])[..45].to_vec(),
            WavError::Truncated { chunk: "data".into(), at: 36 },
            "the WAV file ends inside its \"data\" chunk (at byte 36)".into(),
        ),
        (
            wav_bytes(&[1])[..36].to_vec(),
            WavError::NoData,
            "the WAV file has no \"data\" chunk".into(),
        ),
    ];
    for (bytes, error, message) in cases {
        let got = parse_wav(&bytes).unwrap_err();
        assert_eq!(got, error);
        assert_eq!(got.to_string(), message);
    }
}

#[test]
fn other_chunks_are_skipped() {
    let plain = wav_bytes(&[5, -5]);
    // a LIST chunk of 3 bytes (padded to 4) between the header and the format
    let mut bytes = plain[..12].to_vec();
    bytes.extend(b"LIST\x03\x00\x00\x00abc\x00");
    bytes.extend(&plain[12..]);
    assert_eq!(parse_wav(&bytes).unwrap(), parse_wav(&plain).unwrap());
}

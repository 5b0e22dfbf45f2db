//! The log-mel spectrogram: the mel scale, the FFT against the plain sum, and the whole spectrogram
//! of every clip against Hugging Face's `WhisperFeatureExtractor` (`fixtures/features.safetensors`,
//! made by `fixtures/make_features.py`).

use ch13_real_whisper::clips::CLIPS;
use ch13_real_whisper::mel::{
    dft_power, hann, hz_to_mel, log_mel, mel_filters, mel_to_hz, N_FRAMES, N_FREQS, N_MELS,
};
use safetensors::SafeTensors;

/// How far the spectrogram may be from Hugging Face's. The values lie between about -1 and 1.5;
/// both compute the spectrum in `f64` and round to `f32` at the end, so they differ by the sums'
/// order only, far below this.
const TOLERANCE: f32 = 1e-4;

#[test]
fn the_mel_scale_is_linear_below_1_khz_and_logarithmic_above() {
    assert_eq!(hz_to_mel(200.0), 3.0);
    assert_eq!(hz_to_mel(1000.0), 15.0);
    assert!((hz_to_mel(6400.0) - 42.0).abs() < 1e-12); // 27 mels per factor of 6.4
    for hz in [0.0, 440.0, 999.0, 1000.0, 3000.0, 8000.0] {
        assert!((mel_to_hz(hz_to_mel(hz)) - hz).abs() < 1e-9);
    }
    // 80 filters of 201 frequencies, each a triangle: zero outside its neighbours' centres
    let filters = mel_filters();
    assert_eq!(filters.len(), N_MELS * N_FREQS);
    for m in 0..N_MELS {
        let row = &filters[m * N_FREQS..(m + 1) * N_FREQS];
        let nonzero: Vec<usize> = (0..N_FREQS).filter(|&k| row[k] > 0.0).collect();
        let (first, last) = (nonzero[0], *nonzero.last().unwrap());
        assert_eq!(nonzero.len(), last - first + 1, "filter {m} is one run of frequencies");
    }
}

/// Frames 100 and 200 of the shortest clip, inside the speech, centred on samples 16,000 and
/// 32,000 (the window of frame 100 is samples 15,800 to 16,199): all 80 bands of each, summed from
/// the plain transform written out, are what the FFT gave.
#[test]
fn the_fft_equals_the_plain_sum() {
    let samples = CLIPS[1].samples();
    let mel = log_mel(&samples).unwrap();
    let window = hann();
    let filters = mel_filters();
    // the floor: 8 below the loudest band, which the spectrogram holds as (log + 4) / 4
    let loudest = mel.values.iter().copied().fold(f32::MIN, f32::max) as f64 * 4.0 - 4.0;
    let mut checked = 0;
    for frame in [100, 200] {
        let start = frame * 160 - 200;
        let windowed: Vec<f64> = (0..400).map(|i| samples[start + i] as f64 * window[i]).collect();
        let power = dft_power(&windowed);
        for band in 0..N_MELS {
            let row = &filters[band * N_FREQS..(band + 1) * N_FREQS];
            let sum: f64 = row.iter().zip(&power).map(|(f, p)| f * p).sum();
            let expect = ((sum.log10().max(loudest - 8.0) + 4.0) / 4.0) as f32;
            let got = mel.at(band, frame);
            assert!((got - expect).abs() < 1e-6, "frame {frame} band {band}: {got} vs {expect}");
            checked += 1;
        }
    }
    assert_eq!(checked, 160);
}

#[test]
fn the_spectrogram_of_every_clip_equals_hugging_faces() {
    let bytes =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/features.safetensors"))
            .unwrap();
    let fixture = SafeTensors::deserialize(&bytes).unwrap();
    let floats = |name: &str| -> (Vec<usize>, Vec<f32>) {
        let t = fixture.tensor(name).unwrap();
        let values = t.data().chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap()));
        (t.shape().to_vec(), values.collect())
    };
    let mut largest = 0.0f32;
    for clip in CLIPS {
        let mel = log_mel(&clip.samples()).unwrap();
        assert_eq!(mel.frames, N_FRAMES);
        let (shape, kept) = floats(&format!("features.{}", clip.file));
        let silence = floats(&format!("floor.{}", clip.file)).1[0];
        let frames = shape[0];
        assert_eq!(shape[1], N_MELS);
        for frame in 0..N_FRAMES {
            for band in 0..N_MELS {
                let hf = if frame < frames { kept[frame * N_MELS + band] } else { silence };
                let d = (mel.at(band, frame) - hf).abs();
                largest = largest.max(d);
                assert!(d <= TOLERANCE, "{} band {band} frame {frame}: {d}", clip.file);
            }
        }
    }
    println!("largest difference from WhisperFeatureExtractor: {largest:e}");
}

//! What Whisper hears: a log-mel spectrogram, 80 numbers every 10 ms, computed from the samples.
//!
//! 1. **Thirty seconds.** The samples are padded with silence (zeros) to 30 s, 480,000 samples:
//!    Whisper's encoder always reads one 30-second window.
//! 2. **Frames.** A 25 ms window (400 samples, a periodic Hann window) every 10 ms (160 samples),
//!    centred on its sample (the ends reflected), gives 3,001 frames; the last is dropped.
//! 3. **Power spectrum.** Each frame's discrete Fourier transform, `|X_k|²` for the 201
//!    frequencies `k · 40 Hz`, 0 to 8 kHz.
//! 4. **Mel filters.** 80 triangular filters, evenly spaced on Slaney's mel scale (linear below
//!    1 kHz, logarithmic above) and scaled to equal area, sum the power into 80 bands: finer where
//!    the ear is finer.
//! 5. **Log and scale.** `log10` (floored at 1e-10), everything more than 8 (80 dB) below the
//!    loudest band raised to that floor, then `(x + 4) / 4`: numbers around -1 to 1.
//!
//! The spectrum is computed in `f64` with `rustfft` (a 400-point transform is not a power of two;
//! [`dft_power`] is the same sum written out, for the test that checks the two agree); the result
//! is `f32`, as the encoder takes it. Two shortcuts change no number: a frame whose window holds
//! only the padding's zeros has power 0 everywhere, so it is not transformed, and each filter sums
//! only the run of frequencies where it is not zero.

use rustfft::num_complex::Complex;
use rustfft::FftPlanner;
use std::f64::consts::PI;

/// Samples per window (25 ms at 16 kHz).
pub const N_FFT: usize = 400;
/// Samples between windows (10 ms).
pub const HOP: usize = 160;
/// Mel bands.
pub const N_MELS: usize = 80;
/// Samples in Whisper's 30-second window.
pub const N_SAMPLES: usize = 30 * 16_000;
/// Frames in it: one every 10 ms.
pub const N_FRAMES: usize = N_SAMPLES / HOP;
/// Frequencies of a window's spectrum, 0 to 8 kHz.
pub const N_FREQS: usize = N_FFT / 2 + 1;

/// A log-mel spectrogram: `N_MELS` rows (bands, low to high) of `frames` columns (10 ms each).
#[derive(Debug, Clone, PartialEq)]
pub struct Mel {
    pub frames: usize,
    /// row-major, `(N_MELS, frames)`, the layout of Whisper's `(80, 3000)` input
    pub values: Vec<f32>,
}

impl Mel {
    /// The value of `band` at `frame`.
    pub fn at(&self, band: usize, frame: usize) -> f32 {
        self.values[band * self.frames + frame]
    }
}

/// Slaney's mel scale (librosa's default, and Whisper's): linear up to 1 kHz, 3 mels for every
/// 200 Hz, then logarithmic, 27 mels for every factor of 6.4.
pub fn hz_to_mel(hz: f64) -> f64 {
    let log_step = 6.4f64.ln() / 27.0;
    if hz < 1000.0 {
        hz * 3.0 / 200.0
    } else {
        15.0 + (hz / 1000.0).ln() / log_step
    }
}

/// The inverse of [`hz_to_mel`].
pub fn mel_to_hz(mel: f64) -> f64 {
    let log_step = 6.4f64.ln() / 27.0;
    if mel < 15.0 {
        mel * 200.0 / 3.0
    } else {
        1000.0 * ((mel - 15.0) * log_step).exp()
    }
}

/// The `N_MELS + 2` edges of the filters in Hz, evenly spaced in mels from 0 to 8 kHz: filter `m`
/// spans `edges[m] .. edges[m + 2]` and peaks at `edges[m + 1]`.
pub fn mel_edges() -> Vec<f64> {
    let (low, high) = (hz_to_mel(0.0), hz_to_mel(8_000.0));
    (0..N_MELS + 2)
        .map(|i| mel_to_hz(low + (high - low) * i as f64 / (N_MELS + 1) as f64))
        .collect()
}

/// The 80 filters, `(N_MELS, N_FREQS)` row-major: filter `m` rises from the centre of band
/// `m - 1` to its own centre and falls to the centre of band `m + 1`, and is scaled by
/// `2 / (width in Hz)` so that every filter has the same area (Slaney's normalisation).
// ANCHOR: filters
pub fn mel_filters() -> Vec<f64> {
    let edges = mel_edges();
    let mut filters = vec![0.0; N_MELS * N_FREQS];
    for m in 0..N_MELS {
        let (left, centre, right) = (edges[m], edges[m + 1], edges[m + 2]);
        for k in 0..N_FREQS {
            let hz = 8_000.0 * k as f64 / (N_FREQS - 1) as f64;
            let rise = (hz - left) / (centre - left);
            let fall = (right - hz) / (right - centre);
            filters[m * N_FREQS + k] = rise.min(fall).max(0.0) * 2.0 / (right - left);
        }
    }
    filters
}
// ANCHOR_END: filters

/// The periodic Hann window: `0.5 - 0.5 cos(2π n / N_FFT)`.
pub fn hann() -> Vec<f64> {
    (0..N_FFT).map(|n| 0.5 - 0.5 * (2.0 * PI * n as f64 / N_FFT as f64).cos()).collect()
}

/// The power spectrum of one windowed frame, `|X_k|²` for `k` in `0..N_FREQS`, as the plain sum
/// `X_k = Σ_n x_n e^{-2πikn/N}`: 400 × 201 products, the definition [`log_mel`]'s FFT computes
/// faster.
pub fn dft_power(frame: &[f64]) -> Vec<f64> {
    let n = frame.len();
    (0..N_FREQS)
        .map(|k| {
            let (re, im) = frame.iter().enumerate().fold((0.0, 0.0), |(re, im), (t, &x)| {
                let angle = -2.0 * PI * (k * t % n) as f64 / n as f64;
                (re + x * angle.cos(), im + x * angle.sin())
            });
            re * re + im * im
        })
        .collect()
}

/// The `frame`-th window of the padded samples, reflected at the ends (`x[-1] = x[1]`), times the
/// Hann window.
fn window(padded: &[f64], frame: usize, hann: &[f64]) -> Vec<f64> {
    let half = (N_FFT / 2) as isize;
    let last = padded.len() as isize - 1;
    (0..N_FFT)
        .map(|i| {
            let t = (frame * HOP) as isize + i as isize - half;
            let t = if t < 0 {
                -t
            } else if t > last {
                2 * last - t
            } else {
                t
            };
            padded[t as usize] * hann[i]
        })
        .collect()
}

/// Whisper's log-mel spectrogram of up to 30 seconds of 16 kHz samples: `(80, 3000)`.
///
/// # Errors
/// If there are more than 30 seconds of samples (this chapter transcribes one window).
// ANCHOR: log_mel
pub fn log_mel(samples: &[f32]) -> Result<Mel, String> {
    if samples.len() > N_SAMPLES {
        return Err(format!(
            "{:.2} s of audio: this transcriber hears one 30-second window at most",
            samples.len() as f64 / 16_000.0
        ));
    }
    let mut padded: Vec<f64> = samples.iter().map(|&s| s as f64).collect();
    padded.resize(N_SAMPLES, 0.0);
    let (hann, filters) = (hann(), mel_filters());
    // each filter is zero outside one run of frequencies: only that run is summed
    let runs: Vec<(usize, usize)> = (0..N_MELS)
        .map(|m| {
            let row = &filters[m * N_FREQS..(m + 1) * N_FREQS];
            let first = row.iter().position(|&f| f > 0.0).unwrap_or(0);
            let end = row.iter().rposition(|&f| f > 0.0).map_or(0, |last| last + 1);
            (first, end.max(first))
        })
        .collect();
    let fft = FftPlanner::<f64>::new().plan_fft_forward(N_FFT);
    let mut mel = vec![0.0f64; N_MELS * N_FRAMES];
    let mut buffer = vec![Complex::new(0.0, 0.0); N_FFT];
    // a window that reaches no sample is silence: its power is 0 at every frequency
    let silent_from = (samples.len() + N_FFT / 2).div_ceil(HOP);
    for frame in 0..silent_from.min(N_FRAMES) {
        for (b, x) in buffer.iter_mut().zip(window(&padded, frame, &hann)) {
            *b = Complex::new(x, 0.0);
        }
        fft.process(&mut buffer);
        let power: Vec<f64> = buffer[..N_FREQS].iter().map(|c| c.norm_sqr()).collect();
        for (m, &(first, end)) in runs.iter().enumerate() {
            let row = &filters[m * N_FREQS + first..m * N_FREQS + end];
            mel[m * N_FRAMES + frame] =
                row.iter().zip(&power[first..end]).map(|(f, p)| f * p).sum();
        }
    }
    let logs: Vec<f64> = mel.iter().map(|&p| p.max(1e-10).log10()).collect();
    let floor = logs.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b)) - 8.0;
    let values = logs.iter().map(|&l| ((l.max(floor) + 4.0) / 4.0) as f32).collect();
    Ok(Mel { frames: N_FRAMES, values })
}
// ANCHOR_END: log_mel

/// What fills the spectrogram after the speech, up to 30 seconds. Whisper's cross-attention has no
/// padding mask, so the decoder hears this too, and it moves word times a little.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Padding {
    /// The spectrogram cut after the speech and padded with the value 0, as Whisper's own
    /// `transcribe()` does (`pad_or_trim` on each 30-second window of the log-mel) and so
    /// faster-whisper: in Whisper's scaled units 0 is `log10 = -4`, far above the floor, so the
    /// padding is a faint hum rather than silence. This chapter's default.
    #[default]
    Zeros,
    /// The spectrogram of silence: the samples padded with zeros before the transform, so the
    /// padding frames sit at the floor, 8 below the loudest band. Hugging Face's feature extractor
    /// does this, and so does Whisper's `decode` given `log_mel_spectrogram(pad_or_trim(audio))`.
    Silence,
}

impl Mel {
    /// The same spectrogram with the frames from `speech_frames` on filled as `padding` says.
    pub fn padded(mut self, speech_frames: usize, padding: Padding) -> Mel {
        if padding == Padding::Zeros {
            for band in self.values.chunks_mut(self.frames) {
                let from = speech_frames.min(band.len());
                band[from..].fill(0.0);
            }
        }
        self
    }
}

/// Whisper's input for `samples`: the spectrogram with the frames after the speech filled as
/// `padding` says, and how many 10 ms frames hold speech.
pub fn spectrogram(samples: &[f32], padding: Padding) -> Result<(Mel, usize), String> {
    let speech_frames = samples.len() / HOP;
    Ok((log_mel(samples)?.padded(speech_frames, padding), speech_frames))
}

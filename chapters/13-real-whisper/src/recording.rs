//! A recording made into what Whisper hears. A page's microphone gives one channel at the rate of
//! the reader's sound card (44.1 or 48 kHz, mostly); Whisper hears 16 kHz and one 30-second window.
//! So the page hands its samples to [`prepare`]: resampled to 16 kHz ([`resample`]), checked to be
//! neither empty, silent nor too long, each with a one-line message.

use std::f64::consts::PI;

/// The rate Whisper hears, in samples per second.
pub const RATE: u32 = 16_000;
/// The longest recording: Whisper's one window.
pub const MAX_SECONDS: f64 = 30.0;
/// A recording whose loudest sample is below this is silence: -60 dB of full scale.
pub const SILENCE: f32 = 1e-3;
/// The rates a recording may have, in samples per second.
pub const RATES: std::ops::RangeInclusive<u32> = 8_000..=384_000;
/// Zero crossings of the resampling filter's sinc on each side of its centre.
const LOBES: f64 = 16.0;
/// The filter's cutoff as a share of the lower rate's Nyquist frequency: 7.6 kHz at 16 kHz, above
/// the 8 kHz of Whisper's highest mel band's centre less its width.
const ROLLOFF: f64 = 0.95;

/// `samples` at `from` samples per second, at `to`: each new sample is the old ones weighed by a
/// low-pass filter (a sinc cut at [`ROLLOFF`] of the lower Nyquist frequency, under a Hann window
/// [`LOBES`] zero crossings wide on each side), centred where the new sample falls. The new
/// samples fall on `q` places between old ones (`from / to = p / q` in lowest terms), so there are
/// `q` filters, each computed once and scaled to sum to one. Before the first sample and after the
/// last there is silence.
// ANCHOR: resample
pub fn resample(samples: &[f32], from: u32, to: u32) -> Vec<f32> {
    if from == to {
        return samples.to_vec();
    }
    let g = gcd(from, to);
    let (p, q) = ((from / g) as usize, (to / g) as usize);
    let cutoff = ROLLOFF * (q as f64 / p as f64).min(1.0); // cycles per old sample, times two
    let half = LOBES / cutoff; // the filter's half width, in old samples
    let reach = half.ceil() as i64;
    let filters: Vec<Vec<f64>> = (0..q)
        .map(|phase| {
            let after = phase as f64 / q as f64; // where the new sample falls past an old one
            let taps: Vec<f64> = (1 - reach..=reach)
                .map(|k| windowed_sinc(k as f64 - after, cutoff, half))
                .collect();
            let sum: f64 = taps.iter().sum();
            taps.iter().map(|t| t / sum).collect()
        })
        .collect();
    let old = |k: i64| usize::try_from(k).ok().and_then(|k| samples.get(k)).map_or(0.0, |&s| s);
    let len = (samples.len() * q).div_ceil(p);
    (0..len)
        .map(|n| {
            let (base, phase) = ((n * p / q) as i64, n * p % q);
            let taps = filters[phase].iter().enumerate();
            taps.map(|(i, c)| c * old(base + 1 - reach + i as i64) as f64).sum::<f64>() as f32
        })
        .collect()
}
// ANCHOR_END: resample

/// The low-pass filter at `x` old samples from its centre.
fn windowed_sinc(x: f64, cutoff: f64, half: f64) -> f64 {
    if x.abs() >= half {
        return 0.0;
    }
    let sinc = if x == 0.0 { 1.0 } else { (PI * cutoff * x).sin() / (PI * cutoff * x) };
    cutoff * sinc * 0.5 * (1.0 + (PI * x / half).cos())
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A recording of one channel at `rate` samples per second, made ready for the transcriber:
/// resampled to 16 kHz. A rate that is not a whole number in [`RATES`], or a recording that is
/// empty, not finite, silent or longer than 30 seconds gets a one-line message instead.
pub fn prepare(samples: &[f32], rate: f32) -> Result<Vec<f32>, String> {
    if rate.fract() != 0.0 || !RATES.contains(&(rate as u32)) {
        return Err(format!(
            "a recording at {rate} samples per second: the page takes {} to {} Hz",
            RATES.start(),
            RATES.end()
        ));
    }
    let seconds = samples.len() as f64 / rate as f64;
    if samples.is_empty() {
        return Err("nothing was recorded".into());
    }
    if seconds > MAX_SECONDS {
        return Err(format!(
            "{seconds:.1} s of audio: Whisper hears at most {MAX_SECONDS:.0} s at a time"
        ));
    }
    if samples.iter().any(|s| !s.is_finite()) {
        return Err("the recording holds samples that are not numbers".into());
    }
    let loudest = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    if loudest < SILENCE {
        return Err(format!(
            "only silence was heard (the loudest sample is at {:.0} dB): is the microphone on?",
            20.0 * loudest.max(1e-12).log10()
        ));
    }
    Ok(resample(samples, rate as u32, RATE))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(hz: f64, rate: u32, seconds: f64) -> Vec<f32> {
        let n = (seconds * rate as f64) as usize;
        (0..n).map(|i| (0.5 * (2.0 * PI * hz * i as f64 / rate as f64).sin()) as f32).collect()
    }

    /// The largest difference between `a` and `b` away from their first and last 0.1 s.
    fn inner_diff(a: &[f32], b: &[f32]) -> f32 {
        let (from, to) = (1_600, a.len().min(b.len()) - 1_600);
        support::max_abs_diff(&a[from..to], &b[from..to])
    }

    #[test]
    fn a_tone_below_4_khz_is_kept_from_each_rate() {
        for rate in [48_000, 44_100, 22_050, 8_000] {
            for hz in [220.0, 1_000.0, 3_000.0] {
                let out = resample(&tone(hz, rate, 1.0), rate, RATE);
                assert_eq!(out.len(), 16_000, "{rate}");
                let diff = inner_diff(&out, &tone(hz, RATE, 1.0));
                assert!(diff < 2e-3, "{hz} Hz from {rate} Hz: {diff}");
            }
        }
    }

    #[test]
    fn a_tone_above_8_khz_is_filtered_out() {
        let out = resample(&tone(12_000.0, 48_000, 1.0), 48_000, RATE);
        let loudest = out[1_600..out.len() - 1_600].iter().fold(0.0f32, |m, s| m.max(s.abs()));
        assert!(loudest < 1e-3, "a 12 kHz tone at 16 kHz: {loudest}");
    }

    #[test]
    fn lengths_round_up_and_the_same_rate_is_a_copy() {
        assert_eq!(resample(&[0.5; 3], 48_000, RATE).len(), 1);
        assert_eq!(resample(&[0.5; 4], 48_000, RATE).len(), 2);
        assert_eq!(resample(&[0.5; 441], 44_100, RATE).len(), 160);
        assert_eq!(resample(&[0.25, -0.5], RATE, RATE), [0.25, -0.5]);
    }

    #[test]
    fn a_bad_recording_gets_one_line() {
        let speech = tone(300.0, 48_000, 1.0);
        assert_eq!(prepare(&speech, 48_000.0).unwrap().len(), 16_000);
        assert_eq!(prepare(&[], 48_000.0).unwrap_err(), "nothing was recorded");
        assert_eq!(
            prepare(&vec![1e-4; 48_000], 48_000.0).unwrap_err(),
            "only silence was heard (the loudest sample is at -80 dB): is the microphone on?"
        );
        assert_eq!(
            prepare(&vec![0.1; 31 * 16_000], 16_000.0).unwrap_err(),
            "31.0 s of audio: Whisper hears at most 30 s at a time"
        );
        assert_eq!(
            prepare(&speech, 44_100.5).unwrap_err(),
            "a recording at 44100.5 samples per second: the page takes 8000 to 384000 Hz"
        );
        assert_eq!(
            prepare(&[0.5, f32::NAN], 16_000.0).unwrap_err(),
            "the recording holds samples that are not numbers"
        );
    }
}

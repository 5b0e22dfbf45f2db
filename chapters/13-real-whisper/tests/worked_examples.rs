//! The worked examples of chapter 13, with every number its page shows.

use ch13_real_whisper::mel::{hz_to_mel, mel_edges, mel_filters, N_FREQS};

/// 8 kHz is 45.25 mels; the 82 edges of the 80 filters lie 0.5586 mels apart; the first filter
/// spans 0 to 74.5 Hz (peak 37.2 Hz) and weighs one of the spectrum's frequencies (40 Hz), the last 7,409
/// to 8,000 Hz (peak 7,699 Hz) fourteen; 27 edges lie below 1 kHz.
#[test]
fn worked_example_mel_filters() {
    let round = |x: f64, places: i32| (x * 10f64.powi(places)).round() / 10f64.powi(places);
    assert_eq!(round(hz_to_mel(8_000.0), 2), 45.25);
    assert_eq!(round(hz_to_mel(8_000.0) / 81.0, 4), 0.5586);
    let edges = mel_edges();
    assert_eq!(edges.len(), 82);
    assert_eq!([round(edges[1], 1), round(edges[2], 1)], [37.2, 74.5]);
    assert_eq!([edges[79], edges[80], edges[81]].map(|e| e.round()), [7_409.0, 7_699.0, 8_000.0]);
    assert_eq!(edges.iter().filter(|&&e| e < 1_000.0).count(), 27);
    let filters = mel_filters();
    let width =
        |m: usize| filters[m * N_FREQS..(m + 1) * N_FREQS].iter().filter(|&&f| f > 0.0).count();
    assert_eq!([width(0), width(79)], [1, 14]);
}

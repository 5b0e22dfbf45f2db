//! The worked examples of chapter 10, with every number its page shows.

use ch10_language_models::memory::{binary_size, HALF, PUBLISHED};
use ch10_language_models::rope::dot;
use ch10_language_models::{Rope, RopeLayout, TinyLlama};
use dfdx::prelude::*;

fn rounded(v: &[f32], places: u32) -> Vec<f32> {
    support::fmt::round_all(v, places)
}

/// `x = [1, 2, 3, 4]` at position 1, base 10,000: `theta = [1, 0.01]`; the two layouts pair
/// different features and give different vectors of the same length.
#[test]
fn worked_example_rope_pair() {
    let x = [1.0f32, 2.0, 3.0, 4.0];
    let rope = Rope::new(10_000.0, RopeLayout::Interleaved);
    assert_eq!(rope.frequencies(4), [1.0, 0.01]);
    assert_eq!(rounded(&rope.rotate(&x, 1), 4), [-1.1426, 1.9221, 2.9599, 4.0298]);
    let half = Rope::new(10_000.0, RopeLayout::HalfSplit);
    assert_eq!(rounded(&half.rotate(&x, 1), 4), [-1.9841, 1.9599, 2.4624, 4.0198]);
    let norm = |v: &[f32]| dot(v, v).sqrt();
    assert!((norm(&rope.rotate(&x, 1)) - 30f64.sqrt()).abs() < 1e-6);
    assert!((norm(&half.rotate(&x, 1)) - 30f64.sqrt()).abs() < 1e-6);
}

/// `q = [1, 2, 3, 4]`, `k = [4, 3, 2, 1]`: the score of q at 5 and k at 3 is the score at 102 and
/// 100, and at 2 and 0; at 3 and 5 (offset -2) it is another number.
#[test]
fn worked_example_relative_scores() {
    let rope = Rope::new(10_000.0, RopeLayout::HalfSplit);
    let (q, k) = ([1.0f32, 2.0, 3.0, 4.0], [4.0f32, 3.0, 2.0, 1.0]);
    let score = |m, n| dot(&rope.rotate(&q, m), &rope.rotate(&k, n));
    assert_eq!(dot(&q, &k), 20.0);
    let s = score(5, 3);
    assert!((score(102, 100) - s).abs() < 1e-4 && (score(2, 0) - s).abs() < 1e-4);
    assert_eq!(support::round_to(s as f32, 3), -3.456);
    assert_eq!(support::round_to(score(3, 5) as f32, 3), 15.129);
    assert_eq!(support::round_to(score(1, 0) as f32, 3), 6.888);
}

/// The cache of the published models, per token and at full context (half precision).
#[test]
fn worked_example_cache_memory() {
    let rows: Vec<(usize, String, String)> = PUBLISHED
        .iter()
        .map(|m| {
            let per_token = m.bytes_per_token(HALF);
            (per_token, binary_size(per_token), binary_size(m.bytes_for(m.context, HALF)))
        })
        .collect();
    let text: Vec<(&str, &str)> = rows.iter().map(|(_, a, b)| (a.as_str(), b.as_str())).collect();
    assert_eq!(
        text,
        [
            ("36 KiB", "36 MiB"),
            ("512 KiB", "2 GiB"),
            ("320 KiB", "1.25 GiB"),
            ("128 KiB", "512 MiB")
        ]
    );
    assert_eq!(rows[1].0, 2 * 32 * 32 * 128 * 2);
}

/// The tiny model's 98,624 parameters, term by term, against dfdx's count.
#[test]
fn worked_example_parameter_count() {
    let dev = support::Dev::default();
    let model = TinyLlama::<support::Dev>::new(&dev);
    let (v, m, kvd, f, layers) = (96, 64, 32, 160, 2);
    let attention = m * m + kvd * m + kvd * m + m * m; // q, k, v, o
    let mlp = 3 * m * f; // gate, up, down
    let norms = 2 * m;
    assert_eq!((attention, mlp, norms), (12_288, 30_720, 128));
    let total = v * m + layers * (attention + mlp + norms) + m + m * v;
    assert_eq!(total, 98_624);
    assert_eq!(model.num_trainable_params(), total);
}

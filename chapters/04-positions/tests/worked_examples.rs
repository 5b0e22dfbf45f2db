//! Every number chapter 4 of the book shows, asserted.

use ch04_positions::{
    offset_similarity, position_dot, sinusoidal_table, LearnedPositions, SequenceTooLong,
    SinusoidalEncoding, TokenEmbedding, TokenOutOfVocab,
};
use dfdx::prelude::*;
use support::fmt::round_all;
use support::{assert_close, Dev};

#[test]
fn worked_example_position_zero() {
    // sin(0) = 0 in every even dimension, cos(0) = 1 in every odd one
    let t = sinusoidal_table(1, 64);
    let expected: Vec<f32> = (0..64).map(|d| if d % 2 == 0 { 0.0 } else { 1.0 }).collect();
    assert_eq!(t, expected);
}

#[test]
fn worked_example_position_nine() {
    let t = sinusoidal_table(10, 64);
    let row9 = &t[9 * 64..9 * 64 + 8];
    assert_eq!(
        round_all(row9, 3),
        vec![0.412, -0.911, 0.449, 0.893, -0.940, 0.342, -0.608, -0.794]
    );
    // PyTorch's float32 table (the reference fixture values); ours is computed in f64 and rounded
    #[rustfmt::skip]
    let torch = [0.412_118_5, -0.911_130_25, 0.449_193_5, 0.893_434_46, -0.939_823_5, 0.341_660_26, -0.608_108_64, -0.793_853_8];
    assert_close(row9, &torch, 1e-6);
    // by hand: dimension 0 is sin(9), dimension 2 is sin(9 / 10000^(2/64))
    assert_close(&[row9[0], row9[2]], &[9f32.sin(), (9.0 / 10000f32.powf(2.0 / 64.0)).sin()], 1e-6);
    // the second pair turns 10000^(2/64) = 1.3335 times slower: angle 9 / 1.3335 = 6.749
    let slower = 10000f64.powf(2.0 / 64.0);
    assert_eq!(format!("{slower:.4}"), "1.3335");
    assert_eq!(format!("{:.3}", 9.0 / slower), "6.749");
    assert_eq!(format!("{:.3}", (9.0 / slower).sin()), "0.449");
    assert_eq!(format!("{:.3}", 9f64.sin()), "0.412");
    assert_eq!(format!("{:.3}", 9f64.cos()), "-0.911");
}

#[test]
fn worked_example_clock_periods() {
    // pair i turns once every 2 pi 10000^(2i/d) positions: the first every 2 pi = 6.3 positions,
    // the last (i = 31 of d = 64) every 2 pi 10000^(62/64) = 47,117
    let period = |i: f64, d: f64| 2.0 * std::f64::consts::PI * 10000f64.powf(2.0 * i / d);
    assert_eq!(format!("{:.1}", period(0.0, 64.0)), "6.3");
    assert_eq!(period(31.0, 64.0).round(), 47_117.0);
}

#[test]
fn worked_example_demo_shapes() {
    let dev = Dev::default();
    let pe = SinusoidalEncoding::<64, _>::new(&dev, 100);
    assert_eq!(pe.table.shape().concrete(), [100, 64]);
    let x = support::normal_tensor(&dev, 0, (1, 10, Const::<64>));
    let y = pe.forward(x.clone());
    assert_eq!(y.shape().concrete(), [1, 10, 64]);
    // the encoding is added, not concatenated: y - x is the first 10 rows of the table
    let diff: Vec<f32> = y.as_vec().iter().zip(x.as_vec()).map(|(a, b)| a - b).collect();
    assert_close(&diff, &pe.table.as_vec()[..640], 1e-6);
}

#[test]
fn worked_example_relative_positions() {
    // PE(p) . PE(p + k) = sum_i cos(k w_i): it depends on the offset k only
    let d = 64;
    let t = sinusoidal_table(200, d);
    for k in [0usize, 1, 2, 5, 17] {
        let expected: f32 = (0..d / 2)
            .map(|i| (k as f64 / 10000f64.powf(2.0 * i as f64 / d as f64)).cos() as f32)
            .sum();
        for p in [0usize, 3, 40, 120] {
            let dot = position_dot(&t, d, p, p + k);
            assert!((dot - expected).abs() < 1e-4, "k {k}, p {p}: {dot} vs {expected}");
        }
    }
    // k = 0: |PE(p)|^2 = d/2 = 32 for every p
    assert_close(&[position_dot(&t, d, 7, 7)], &[32.0], 1e-4);
    assert_eq!(offset_similarity(d, 0), 32.0);
}

#[test]
fn worked_example_similarity_against_offset() {
    let f = |k: usize| offset_similarity(64, k);
    // largest at offset 0, and smaller at every other offset the figure shows
    assert!((1..=100).all(|k| f(k) < f(0)));
    // it falls over the first five offsets: 32, 30.92, 28.30, 25.59, 23.93, 23.50
    let first: Vec<String> = (0..=5).map(|k| format!("{:.2}", f(k))).collect();
    assert_eq!(first, ["32.00", "30.92", "28.30", "25.59", "23.93", "23.50"]);
    assert!((1..=5).all(|k| f(k) < f(k - 1)));
    // but not monotonically after that: offset 6 is a little more similar than offset 5,
    // and offset 18 more than offset 16
    assert_eq!(format!("{:.2}", f(6)), "23.56");
    assert!(f(6) > f(5));
    assert_eq!((format!("{:.1}", f(16)), format!("{:.1}", f(18))), ("19.4".into(), "20.3".into()));
    assert!(f(18) > f(16));
    // near offsets still beat far ones: 1..=10 all score at least 21.05, 50..=100 at most 18.79
    let near = (1..=10).map(f).fold(f64::INFINITY, f64::min);
    let far = (50..=100).map(f).fold(f64::NEG_INFINITY, f64::max);
    assert_eq!((format!("{near:.2}"), format!("{far:.2}")), ("21.05".into(), "18.79".into()));
    // the table gives the same numbers (in f32) at any position
    let t = sinusoidal_table(130, 64);
    for k in [5usize, 6, 16, 18] {
        assert!((position_dot(&t, 64, 100, 100 + k) as f64 - f(k)).abs() < 1e-4);
    }
}

#[test]
fn worked_example_values_stay_in_range() {
    let t = sinusoidal_table(1000, 128);
    assert!(t.iter().all(|v| (-1.0..=1.0).contains(v)));
    let (lo, hi) =
        t.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
    assert!(lo < -0.999 && hi == 1.0, "the table uses the whole range: {lo} .. {hi}");
}

#[test]
fn worked_example_embedding_rms() {
    // the numbers `cargo run -p ch04-positions --example embedding` prints
    let ch04_positions::scale::EmbeddingScale {
        positions: table,
        torch_normal,
        unit_variance,
        dfdx_uniform,
    } = ch04_positions::scale::measure(&support::seeded_device(0));
    let printed = [table, torch_normal, unit_variance, dfdx_uniform].map(|v| format!("{v:.2}"));
    assert_eq!(printed, ["0.71", "11.33", "1.00", "0.21"]);
    // and what they estimate: every (sin, cos) pair has squared norm 1, so the table's mean
    // square is exactly 1/2; the embeddings' RMS is the initial one times sqrt(128)
    assert!((table - 0.5f32.sqrt()).abs() < 1e-6);
    let expected_torch = 128f32.sqrt();
    assert_eq!(format!("{expected_torch:.1}"), "11.3");
    let expected_dfdx = (1.0 / (3.0f32 * 1000.0)).sqrt() * 128f32.sqrt(); // U(-b, b) has RMS b / sqrt(3)
    assert!((torch_normal / expected_torch - 1.0).abs() < 0.01, "{torch_normal}");
    assert!((unit_variance - 1.0).abs() < 0.01, "{unit_variance}");
    assert!((dfdx_uniform / expected_dfdx - 1.0).abs() < 0.01, "{dfdx_uniform} vs {expected_dfdx}");
    // PyTorch's initialisation makes the embeddings 16 times the positions
    assert_eq!((torch_normal / table).round(), 16.0);
}

#[test]
fn embedding_is_the_table_row_times_sqrt_d_model() {
    let dev = support::seeded_device(0);
    let embed = TokenEmbedding::<10, 4, _>::new(&dev);
    let ids = dev.tensor_from_vec(vec![1usize, 5, 5, 9], (1, 4));
    let x = embed.forward(ids).as_vec();
    let w = embed.embedding.weight.as_vec();
    for (pos, id) in [1usize, 5, 5, 9].into_iter().enumerate() {
        let expected: Vec<f32> = w[id * 4..id * 4 + 4].iter().map(|v| v * 2.0).collect(); // sqrt(4) = 2
        assert_close(&x[pos * 4..pos * 4 + 4], &expected, 1e-6);
    }
    // the repeated token has the same vector until positions are added
    assert_eq!(x[4..8], x[8..12]);
    let pe = SinusoidalEncoding::<4, _>::new(&dev, 8);
    let y = pe.forward(dev.tensor_from_vec(x, (1, 4, Const::<4>))).as_vec();
    assert_ne!(y[4..8], y[8..12]);
}

#[test]
fn worked_example_errors() {
    let dev = Dev::default();
    let pe = SinusoidalEncoding::<4, _>::new(&dev, 8);
    let long: Tensor<(usize, usize, Const<4>), f32, _> = dev.zeros_like(&(1, 9, Const::<4>));
    let e = pe.try_forward(long.clone()).unwrap_err();
    assert_eq!(e, SequenceTooLong { len: 9, max_len: 8 });
    assert_eq!(
        e.to_string(),
        "sequence of length 9 but the positional table has only 8 positions; build it with max_len >= 9"
    );
    let learned = LearnedPositions::<8, 4, _>::new(&dev);
    assert_eq!(learned.try_forward(long).unwrap_err(), SequenceTooLong { len: 9, max_len: 8 });
    let embed = TokenEmbedding::<10, 4, _>::new(&dev);
    let e = embed.try_forward(dev.tensor_from_vec(vec![3usize, 12], (1, 2))).unwrap_err();
    assert_eq!(e, TokenOutOfVocab { token: 12, vocab: 10 });
    assert_eq!(e.to_string(), "token id 12 is outside the vocabulary of 10 ids (0..10)");
    // exactly max_len positions is fine
    let fits: Tensor<(usize, usize, Const<4>), f32, _> = dev.zeros_like(&(2, 8, Const::<4>));
    assert_eq!(pe.try_forward(fits).unwrap().shape().concrete(), [2, 8, 4]);
}

#[test]
#[should_panic(expected = "d_model must be even (got 7)")]
fn odd_width_table_is_rejected() {
    sinusoidal_table(4, 7);
}

#[test]
fn learned_positions_add_one_vector_per_position() {
    let dev = support::seeded_device(1);
    let learned = LearnedPositions::<16, 4, _>::new(&dev);
    let x: Tensor<(usize, usize, Const<4>), f32, _> = dev.zeros_like(&(2, 3, Const::<4>));
    let y = learned.forward(x).as_vec();
    let p = learned.embedding.weight.as_vec();
    for b in 0..2 {
        assert_close(&y[b * 12..b * 12 + 12], &p[..12], 0.0);
    }
}

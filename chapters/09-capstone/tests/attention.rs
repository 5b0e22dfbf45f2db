//! The trained model reads the input backwards: in layer 2, head 3, the strongest
//! cross-attention of most output digits falls on the mirrored input position.

use ch09_capstone::attention::{cross_attention, eos_strongest_positions, mirrored_shares};
use ch09_capstone::data::{test_set, validation_set};
use ch09_capstone::figures::{SHOWN, SHOWN_HEAD};
use ch09_capstone::trained::{load_model, load_report};
use support::Dev;

fn pct(x: f64) -> f64 {
    (1000.0 * x).round() / 10.0
}

#[test]
fn worked_example_mirrored_attention() {
    let dev = Dev::default();
    let model = load_model(&dev);
    let shares = mirrored_shares(&model, &dev, &validation_set(&load_report().config));
    let rounded: Vec<Vec<f64>> =
        shares.iter().map(|l| l.iter().map(|&s| pct(s)).collect()).collect();
    assert_eq!(rounded, vec![vec![17.5, 20.7, 18.6, 19.8], vec![64.7, 69.2, 88.1, 48.4]]);
    let (l, h) = SHOWN_HEAD;
    assert!(shares[l][h] > 0.8, "most output digits look at their mirrored input");
}

#[test]
fn the_shown_sequence_is_an_anti_diagonal() {
    let dev = Dev::default();
    let model = load_model(&dev);
    let read = cross_attention(&model, &dev, &SHOWN);
    assert_eq!(read.answer, vec![6, 2, 9, 5, 1, 4, 1, 3]);
    let (l, h) = SHOWN_HEAD;
    // one row per output token (8 digits and EOS), one column per input digit; rows sum to 1
    assert_eq!((read.maps[l][h].len(), read.maps[l][h][0].len()), (9, 8));
    for row in &read.maps[l][h] {
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }
    assert!(read.mirrored_share(l, h) >= 0.75, "{}", read.mirrored_share(l, h));
}

/// The `EOS` row of layer 2 (mean of the heads), over the whole test set: where its strongest
/// weight falls, counted per input position from the start.
#[test]
fn worked_example_eos_row() {
    let dev = Dev::default();
    let model = load_model(&dev);
    let counts = eos_strongest_positions(&model, &dev, &test_set(&load_report().config), 1);
    println!("EOS row, strongest input position (from the start): {counts:?}");
    assert_eq!(counts.iter().sum::<usize>(), 800, "every test sequence is reversed");
    // all 800 on the first input digit: the one the model writes last
    assert_eq!(counts, [vec![800], vec![0; 9]].concat());
}

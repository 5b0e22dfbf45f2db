//! The numbers the page states about linear attention and BigBird.

use ch08_efficient::quality::linear_vs_softmax;
use ch08_efficient::BigBird;

fn near(x: f32, want: f32) -> bool {
    (x - want).abs() <= 0.0005
}

#[test]
fn worked_example_linear_is_flatter_than_softmax() {
    let c = linear_vs_softmax(64);
    assert!(near(c.mean_abs_diff, 0.121) && near(c.mean_abs_value, 0.809), "{c:?}");
    // uniform rows would have ln 64 = 4.159 nats
    assert!(near(c.entropy_softmax, 3.669) && near(c.entropy_linear, 4.137), "{c:?}");
    assert!(near(c.largest_softmax, 0.105) && near(c.largest_linear, 0.024), "{c:?}");
}

#[test]
fn worked_example_bigbird_density() {
    // the figure: 256 tokens in blocks of 16, window 1, 1 global block, 2 random blocks
    let figure = BigBird::new(256, 16, 1, 1, 2, 0);
    assert_eq!(figure.visible.len(), 16);
    // 98 of the 16 x 16 block pairs: 38 %
    assert_eq!(figure.visible.iter().map(Vec::len).sum::<usize>(), 98);
    assert!((figure.density() - 0.3828125).abs() < 1e-9, "{}", figure.density());
    // the random draws come from all 16 blocks: 8 of the 32 land on a block the row already
    // sees (both of the global row's, 6 of the other rows' 30)
    assert_eq!(figure.drawn.iter().map(Vec::len).sum::<usize>(), 32);
    assert_eq!(figure.wasted_draws(), 8);
    assert_eq!(figure.visible[0].len(), 16, "the global row sees every block");
    let global_row_wasted = figure.drawn[0].iter().filter(|&&b| figure.visible[0].contains(&b));
    assert_eq!(global_row_wasted.count(), 2);
    // so the 15 other rows see 4 to 6 distinct blocks (9 see 6, 4 see 5, 2 see 4), 5.47 on
    // average, not the 3 + 1 + 2 = 6 the parameters suggest
    let rows: Vec<usize> = figure.visible[1..].iter().map(Vec::len).collect();
    let count = |k: usize| rows.iter().filter(|&&r| r == k).count();
    assert_eq!((count(6), count(5), count(4), rows.len()), (9, 4, 2, 15));
    assert_eq!(rows.iter().sum::<usize>(), 82);
    assert_eq!((82.0f64 / 15.0 * 100.0).round() / 100.0, 5.47);
    assert_eq!(16 + 82, 98);
    // the equality check: 300 tokens in blocks of 20
    let check = BigBird::new(300, 20, 1, 1, 2, 0);
    assert!((100.0 * check.density() - 40.9).abs() < 0.05, "{}", check.density());
}

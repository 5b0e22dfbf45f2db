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
    // the equality check: 300 tokens in blocks of 20
    let check = BigBird::new(300, 20, 1, 1, 2, 0);
    assert!((100.0 * check.density() - 40.9).abs() < 0.05, "{}", check.density());
}

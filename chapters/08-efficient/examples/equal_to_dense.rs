//! Every method against the dense computation with the same pattern: 4 heads of 300 tokens,
//! d_k 16. Prints whether the largest difference stays under 1e-5 (the exact size of a rounding
//! difference depends on the CPU's instructions; the tests assert the bound).

use ch08_efficient::{dense, fast, linear, sliding, tiled};
use ch08_efficient::{BigBird, Causal, Full, Heads, Pattern, SlidingWindow, Tiles, TILES};
use support::Dev;

fn check(name: &str, got: &Heads, want: &Heads) {
    let ok = if got.max_abs_diff(want) < 1e-5 { "yes" } else { "NO" };
    println!("{name:<44} equal to 1e-5: {ok}");
}

fn main() {
    let dev = Dev::default();
    let n = 300;
    let [q, k, v] = [1, 2, 3].map(|seed| Heads::random(seed, 4, n, 16));
    let reference = |p: &dyn Pattern| dense::<16, 16, Dev>(&dev, &q, &k, &v, p);
    for causal in [false, true] {
        let (pattern, label): (&dyn Pattern, _) =
            if causal { (&Causal, "causal") } else { (&Full, "full") };
        let want = reference(pattern);
        check(
            &format!("tiled, readable ({label})"),
            &tiled::tiled(&q, &k, &v, pattern, Tiles { q: 64, k: 128 }),
            &want,
        );
        check(&format!("tiled, fast ({label})"), &fast::tiled(&q, &k, &v, pattern, TILES), &want);
        let window = SlidingWindow { w: 16, causal };
        let want = reference(&window);
        check(
            &format!("sliding window w = 16, readable ({label})"),
            &sliding::sliding_window(&q, &k, &v, window),
            &want,
        );
        check(
            &format!("sliding window w = 16, fast ({label})"),
            &fast::tiled(&q, &k, &v, &window, TILES),
            &want,
        );
    }
    let bigbird = BigBird::new(n, 20, 1, 1, 2, 0);
    let want = reference(&bigbird);
    check(
        "BigBird blocks of 20, one query at a time",
        &sliding::sparse(&q, &k, &v, &bigbird),
        &want,
    );
    check("BigBird blocks of 20, fast", &fast::tiled(&q, &k, &v, &bigbird, TILES), &want);
    println!("BigBird keeps {:.1} % of the scores", 100.0 * bigbird.density());
    for causal in [false, true] {
        let h = (q.head(0), k.head(0), v.head(0));
        let linear = linear::linear_head(h.0, h.1, h.2, (n, 16, 16), causal);
        let (quadratic, _) = linear::linear_quadratic_head(h.0, h.1, h.2, (n, 16, 16), causal);
        let ok = if support::max_abs_diff(&linear, &quadratic) < 1e-5 { "yes" } else { "NO" };
        println!(
            "{:<44} equal to 1e-5: {ok}",
            format!("linear = its quadratic form (causal {causal})")
        );
    }
}

//! Every method equals the dense computation (chapter 1's attention with the same pattern as its
//! mask) to 1e-5, causal and not.

use ch08_efficient::pattern::{allowed_mask, keys_per_row};
use ch08_efficient::{dense, fast, linear, sliding, tiled};
use ch08_efficient::{BigBird, Causal, Full, Heads, MaskPattern, Pattern, SlidingWindow, Tiles};
use proptest::prelude::*;
use support::Dev;

const D: usize = 16;

fn qkv(seed: u64, heads: usize, n: usize) -> [Heads; 3] {
    [0, 1, 2].map(|i| Heads::random(seed * 3 + i, heads, n, D))
}

fn reference(q: &Heads, k: &Heads, v: &Heads, pattern: &dyn Pattern) -> Heads {
    dense::<D, D, Dev>(&Dev::default(), q, k, v, pattern)
}

#[test]
fn worked_example_window_band() {
    // 10 tokens, window 2: the middle rows see 5 keys, the ends 3 and 4
    let w = SlidingWindow { w: 2, causal: false };
    assert_eq!(keys_per_row(&w, 10, 10), vec![3, 4, 5, 5, 5, 5, 5, 5, 4, 3]);
    assert_eq!(keys_per_row(&w, 10, 10).iter().sum::<usize>(), 44);
    // a middle row's 5 keys are its 4 neighbours (2 on each side) and itself
    assert_eq!((2 * w.w + 1, keys_per_row(&w, 10, 10)[5] - 1), (5, 4));
    let row3: Vec<bool> = allowed_mask(&w, 10, 10)[30..40].to_vec();
    assert_eq!(row3, [false, true, true, true, true, true, false, false, false, false]);
    let causal = SlidingWindow { w: 2, causal: true };
    assert_eq!(keys_per_row(&causal, 10, 10), vec![1, 2, 3, 3, 3, 3, 3, 3, 3, 3]);
}

#[test]
fn sliding_window_equals_masked_dense() {
    for causal in [false, true] {
        let [q, k, v] = qkv(1, 3, 40);
        let w = SlidingWindow { w: 5, causal };
        let want = reference(&q, &k, &v, &w);
        assert!(
            sliding::sliding_window(&q, &k, &v, w).max_abs_diff(&want) < 1e-5,
            "readable, causal {causal}"
        );
        assert!(
            fast::tiled(&q, &k, &v, &w, Tiles { q: 8, k: 8 }).max_abs_diff(&want) < 1e-5,
            "fast, causal {causal}"
        );
    }
}

#[test]
fn bigbird_equals_masked_dense() {
    let [q, k, v] = qkv(2, 2, 64);
    let bb = BigBird::new(64, 8, 1, 1, 2, 7);
    let want = reference(&q, &k, &v, &bb);
    assert!(sliding::sparse(&q, &k, &v, &bb).max_abs_diff(&want) < 1e-5);
    assert!(fast::tiled(&q, &k, &v, &bb, Tiles { q: 16, k: 8 }).max_abs_diff(&want) < 1e-5);
    // local (3 blocks) + global (block 0 and row 0) + 2 random: far from all 64 blocks
    assert!(bb.density() < 0.75, "density {}", bb.density());
}

#[test]
fn linear_attention_equals_its_quadratic_form() {
    let [q, k, v] = qkv(3, 1, 50);
    for causal in [false, true] {
        let fast = linear::linear_head(q.head(0), k.head(0), v.head(0), (50, D, D), causal);
        let (slow, weights) =
            linear::linear_quadratic_head(q.head(0), k.head(0), v.head(0), (50, D, D), causal);
        support::assert_close(&fast, &slow, 1e-5);
        // every row of weights sums to 1; causal rows put nothing on the future
        for i in 0..50 {
            let row = &weights[i * 50..(i + 1) * 50];
            assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            assert!(!causal || row[i + 1..].iter().all(|&a| a == 0.0));
        }
    }
}

#[test]
fn tiled_kernels_equal_dense_with_a_padding_mask() {
    let [q, k, v] = qkv(4, 2, 30);
    // the last 7 keys are padding for every query
    let padding = MaskPattern { n_k: 30, allowed: (0..30 * 30).map(|i| i % 30 < 23).collect() };
    let want = reference(&q, &k, &v, &padding);
    assert!(tiled::tiled(&q, &k, &v, &padding, Tiles { q: 4, k: 8 }).max_abs_diff(&want) < 1e-5);
    assert!(fast::tiled(&q, &k, &v, &padding, Tiles { q: 4, k: 8 }).max_abs_diff(&want) < 1e-5);
}

#[test]
fn a_fully_masked_row_is_uniform_as_in_chapter_1() {
    // row 0 may see nothing: chapter 1's -1e9 fill makes it the plain mean of the values
    let [q, k, v] = qkv(5, 1, 6);
    let m = MaskPattern { n_k: 6, allowed: (0..36).map(|i| i >= 6).collect() };
    let want = reference(&q, &k, &v, &m);
    let got = tiled::tiled(&q, &k, &v, &m, Tiles { q: 2, k: 4 });
    assert!(got.max_abs_diff(&want) < 1e-5);
    let mean: Vec<f32> =
        (0..D).map(|c| (0..6).map(|j| v.row(0, j)[c]).sum::<f32>() / 6.0).collect();
    support::assert_close(&got.row(0, 0)[..D], &mean, 1e-5);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn tiled_and_fast_equal_dense_for_random_shapes(
        seed in 0u64..1000,
        heads in 1usize..4,
        n in 1usize..70,
        bq in 1usize..20,
        bk in 1usize..40,
        causal in any::<bool>(),
    ) {
        let [q, k, v] = qkv(seed, heads, n);
        let pattern: &dyn Pattern = if causal { &Causal } else { &Full };
        let want = reference(&q, &k, &v, pattern);
        let readable = tiled::tiled(&q, &k, &v, pattern, Tiles { q: bq, k: bk });
        prop_assert!(readable.max_abs_diff(&want) < 1e-5, "readable {}", readable.max_abs_diff(&want));
        let fast = fast::tiled(&q, &k, &v, pattern, Tiles { q: bq, k: bk });
        prop_assert!(fast.max_abs_diff(&want) < 1e-5, "fast {}", fast.max_abs_diff(&want));
    }
}

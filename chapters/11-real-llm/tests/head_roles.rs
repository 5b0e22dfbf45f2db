//! SmolLM2's heads by what they do, as the page states them: previous-token, duplicate and
//! induction heads, with their scores.

use ch10_language_models::analysis::reading::SKIP_QUERIES;
use ch11_real_llm::heads::{self, HeadScores};

use crate::real_model;

/// The `n` highest `(layer, head, score)`, counted from 1, scores to 2 decimals.
fn top(s: &HeadScores, n: usize) -> Vec<(usize, usize, f64)> {
    s.top(n).into_iter().map(|(l, h, v)| (l + 1, h + 1, (v * 100.0).round() / 100.0)).collect()
}

/// The top three `(layer, head)` counted from 1, scores to 2 decimals.
fn top3(s: &HeadScores) -> Vec<(usize, usize, f64)> {
    top(s, 3)
}

#[test]
#[ignore = "needs SmolLM2's GGUF file: cargo xtask models"]
fn the_committed_reading_is_the_models() {
    let now = heads::roles(real_model::model(), real_model::tokenizer());
    let committed = heads::committed();
    let pairs = [
        (&now.sinks, &committed.sinks),
        (&now.previous, &committed.previous),
        (&now.duplicate, &committed.duplicate),
        (&now.induction, &committed.induction),
    ];
    // the same on the CPU that wrote the file; on a GPU (`support::ON_GPU`: cuBLAS sums in
    // another order) the shares of attention differed by 8.9e-7 at most on an H100
    let tolerance = if support::ON_GPU { 1e-5 } else { 1e-9 };
    for (a, b) in pairs {
        let diff = a.values.iter().zip(&b.values).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
        assert!(
            diff < tolerance && a.values.len() == 270,
            "measurements/heads.json is stale: {diff}"
        );
    }
}

#[test]
fn the_pages_head_readings() {
    let roles = heads::committed();
    assert_eq!(top3(&roles.previous), [(17, 1, 0.75), (12, 2, 0.61), (2, 3, 0.54)]);
    assert_eq!(top3(&roles.duplicate), [(15, 4, 0.67), (9, 1, 0.66), (16, 7, 0.56)]);
    assert_eq!(top3(&roles.induction), [(19, 7, 0.92), (18, 4, 0.79), (18, 5, 0.66)]);
    let counts = [&roles.previous, &roles.duplicate, &roles.induction].map(|s| s.above(0.3));
    assert_eq!(counts, [8, 3, 8]);
    // the strongest induction head is also a sink on ordinary text, the third strongest
    assert_eq!((roles.sinks.get(18, 6) * 100.0).round(), 94.0);
    assert_eq!(top(&roles.sinks, 3)[2], (19, 7, 0.94));
}

/// The sinks map as the page describes it, layer by layer (counted from 1), against an even
/// spread's 0.018.
#[test]
fn the_pages_sink_readings() {
    let roles = heads::committed();
    let row = |l: usize| (0..9).map(|h| roles.sinks.get(l - 1, h)).collect::<Vec<f64>>();
    let layer_max = |l: usize| row(l).into_iter().fold(0.0f64, f64::max);
    let layer_mean = |l: usize| row(l).iter().sum::<f64>() / 9.0;
    // under 0.11 in every head of layers 1, 2, 11 and 12
    assert!([1, 2, 11, 12].iter().all(|&l| layer_max(l) < 0.11));
    // about a quarter of the weight, on average over the heads, in layers 4 to 10
    assert!((4..=10).all(|l| (0.2..0.3).contains(&layer_mean(l))), "{}", layer_mean(10));
    // from layer 13 on, 97 of the 162 heads over one half; none before
    let over_half =
        |layers: std::ops::RangeInclusive<usize>| layers.flat_map(row).filter(|&v| v > 0.5).count();
    assert_eq!((over_half(13..=30), over_half(1..=12)), (97, 0));
    assert_eq!(roles.sinks.above(0.5), 97);
}

/// The even spread: a query at position `q` (from 0) sees `q + 1` keys, so spreading evenly
/// puts `1/(q + 1)` on position 0; averaged over the queries from [`SKIP_QUERIES`] (16) to 127,
/// that is `(H(128) - H(16)) / 112` with `H(n)` the n-th harmonic number.
#[test]
fn the_even_spread_is_the_mean_of_one_over_the_keys_seen() {
    let roles = heads::committed();
    let harmonic = |n: usize| (1..=n).map(|k| 1.0 / k as f64).sum::<f64>();
    assert_eq!(SKIP_QUERIES, 16);
    let derived = (harmonic(128) - harmonic(SKIP_QUERIES)) / (128 - SKIP_QUERIES) as f64;
    assert!((roles.even_spread - derived).abs() < 1e-12, "{} {derived}", roles.even_spread);
    assert_eq!(
        ((harmonic(128) * 1000.0).round(), (harmonic(16) * 1000.0).round()),
        (5433.0, 3381.0)
    );
    assert_eq!((roles.even_spread * 1000.0).round(), 18.0);
    // without the skip, the mean over all 128 queries would be H(128)/128
    assert_eq!((harmonic(128) / 128.0 * 1000.0).round(), 42.0);
}

/// The order of the roles through the layers, as the page states it: the three strongest
/// previous-token heads and the three duplicate heads sit below the three strongest induction
/// heads; among all heads past 0.3, two previous-token heads sit above them.
#[test]
fn the_strongest_heads_come_in_the_induction_circuits_order() {
    let roles = heads::committed();
    let induction_layers: Vec<usize> = top3(&roles.induction).iter().map(|t| t.0).collect();
    assert_eq!(induction_layers, [19, 18, 18]);
    let lowest_induction = *induction_layers.iter().min().unwrap();
    assert!(top3(&roles.previous).iter().all(|t| t.0 < lowest_induction));
    assert!(top3(&roles.duplicate).iter().all(|t| t.0 < lowest_induction));
    // every head past 0.3, (layer, head, score) counted from 1
    let past = |s: &HeadScores| top(s, s.above(0.3));
    let above: Vec<_> =
        past(&roles.previous).into_iter().filter(|t| t.0 > lowest_induction).collect();
    assert_eq!(above, [(20, 4, 0.43), (23, 2, 0.36)]);
    assert!(past(&roles.duplicate).iter().all(|t| t.0 < lowest_induction));
    let induction_layers: Vec<usize> = past(&roles.induction).iter().map(|t| t.0).collect();
    assert_eq!(induction_layers, [19, 18, 18, 19, 18, 24, 24, 21]);
}

/// Weight maps of one layer, 2 heads, one window of `context`: head 0 puts everything on
/// `target(query)`, head 1 spreads evenly over the keys it may see.
fn maps(context: usize, target: impl Fn(usize) -> usize) -> Vec<Vec<f32>> {
    let mut w = vec![0f32; 2 * context * context];
    for q in 0..context {
        w[q * context + target(q)] = 1.0;
        for k in 0..=q {
            w[context * context + q * context + k] = 1.0 / (q + 1) as f32;
        }
    }
    vec![w]
}

#[test]
fn the_statistics_find_heads_made_by_hand() {
    let previous = heads::previous_token(&maps(32, |q| q.saturating_sub(1)), 2, 32);
    assert_eq!(previous.get(0, 0), 1.0);
    // the even head: the mean of 1/(q+1) over the queries from 16 on
    let even: f64 = (16..32).map(|q| 1.0 / (q + 1) as f64).sum::<f64>() / 16.0;
    assert!((previous.get(0, 1) - even).abs() < 1e-6);
    // half = 10: query 10 + k's earlier copy is k, and k + 1 came after it
    let (duplicate, induction) =
        heads::copies(&maps(20, |q| if q > 10 { q - 9 } else { 0 }), 2, 10);
    assert_eq!((induction.get(0, 0), duplicate.get(0, 0)), (1.0, 0.0));
    assert_eq!(induction.top(1)[0].1, 0);
    let tokens = heads::repeated_tokens(7, 5, 100..200);
    assert_eq!(tokens[..5], tokens[5..]);
    assert!(tokens.iter().all(|t| (100..200).contains(t)));
}

/// In the second half each token appeared exactly once before: the first half's ids are
/// distinct, for the page's four draws and for a draw that takes every id of its range.
#[test]
fn the_repeated_tokens_are_distinct() {
    let distinct = |ids: &[usize]| ids.iter().collect::<std::collections::HashSet<_>>().len();
    for seed in 0..4 {
        let tokens = heads::repeated_tokens(seed, 100, 1000..40_000);
        assert_eq!((tokens.len(), distinct(&tokens[..100])), (200, 100), "seed {seed}");
        assert_eq!(tokens[..100], tokens[100..]);
        assert!(tokens.iter().all(|t| (1000..40_000).contains(t)));
    }
    let all = heads::repeated_tokens(3, 10, 20..30);
    assert_eq!(distinct(&all[..10]), 10);
    // drawn, not taken in order
    assert_ne!(all[..10], (20..30).collect::<Vec<_>>());
}

#[test]
#[should_panic(expected = "11 distinct ids cannot be drawn from 20..30")]
fn more_distinct_tokens_than_the_range_holds_is_refused() {
    heads::repeated_tokens(0, 11, 20..30);
}

//! SmolLM2's heads by what they do, as the page states them: previous-token, duplicate and
//! induction heads, with their scores.

use ch11_real_llm::heads::{self, HeadScores};

use crate::real_model;

/// The top three `(layer, head)` counted from 1, scores to 2 decimals.
fn top3(s: &HeadScores) -> Vec<(usize, usize, f64)> {
    s.top(3).into_iter().map(|(l, h, v)| (l + 1, h + 1, (v * 100.0).round() / 100.0)).collect()
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
    for (a, b) in pairs {
        let diff = a.values.iter().zip(&b.values).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
        assert!(diff < 1e-9 && a.values.len() == 270, "measurements/heads.json is stale: {diff}");
    }
}

#[test]
fn the_pages_head_readings() {
    let roles = heads::committed();
    assert_eq!(top3(&roles.previous), [(17, 1, 0.75), (12, 2, 0.61), (2, 3, 0.54)]);
    assert_eq!(top3(&roles.duplicate), [(15, 4, 0.64), (9, 1, 0.62), (16, 7, 0.53)]);
    assert_eq!(top3(&roles.induction), [(19, 7, 0.91), (18, 4, 0.77), (18, 5, 0.60)]);
    let counts = [&roles.previous, &roles.duplicate, &roles.induction].map(|s| s.above(0.3));
    assert_eq!(counts, [8, 3, 8]);
    // sinks, against an even spread's 0.018: under 0.11 in layers 1-2 and 11-12, about a quarter of
    // the weight in layers 4-10, and every head over one half in layers 13-30
    assert_eq!((roles.even_spread * 1000.0).round(), 18.0);
    assert_eq!(roles.sinks.above(0.5), 97);
    let layer_max = |l: usize| (0..9).map(|h| roles.sinks.get(l - 1, h)).fold(0.0f64, f64::max);
    assert!([1, 2, 11, 12].iter().all(|&l| layer_max(l) < 0.11));
    let layer_mean = |l: usize| (0..9).map(|h| roles.sinks.get(l - 1, h)).sum::<f64>() / 9.0;
    assert!((4..=10).all(|l| (0.2..0.3).contains(&layer_mean(l))), "{}", layer_mean(10));
    let late = roles.sinks.values[12 * 9..].iter().filter(|&&v| v > 0.5).count();
    assert_eq!(late, 97);
    // the strongest previous-token and duplicate heads sit below the strongest induction heads
    let lowest_induction = top3(&roles.induction).iter().map(|t| t.0).min().unwrap();
    assert_eq!(lowest_induction, 18);
    assert!(top3(&roles.duplicate).iter().chain(&top3(&roles.previous)).all(|t| t.0 < 18));
    // the strongest induction head is also a sink on ordinary text
    assert_eq!((roles.sinks.get(18, 6) * 100.0).round(), 94.0);
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

//! Learned sinks and sliding windows against Hugging Face's `GptOssAttention`.

use ch10_language_models::may_attend;
use ch14_modern_attention::sinks::fixture::{self, SEQ_LEN};

/// Both layers within 1e-5 of Hugging Face's, whole and through the cache (a rolling one for the
/// windowed layer), for 40 tokens: five times the window.
#[test]
fn both_layers_are_gpt_oss_attention() {
    for layer in [0, 1] {
        let d = fixture::differences(layer);
        println!("layer {layer}: {d:?}");
        for (what, diff) in [
            ("output", d.output),
            ("weights", d.weights),
            ("cached", d.cached),
            ("hf", d.hf_cached),
        ] {
            assert!(diff < 1e-5, "layer {layer} {what}: {diff}");
        }
    }
}

/// Where the window's edge falls: Hugging Face's mask for the windowed layer lets the query at
/// position `m` see the keys `m - 7 ..= m`, 8 keys with itself, which is chapter 10's
/// `may_attend(m, n, Some(8))`; the other layer's mask is the causal one.
#[test]
fn the_window_includes_the_query() {
    let window = fixture::meta()["config"]["sliding_window"].as_u64().unwrap() as usize;
    assert_eq!(window, 8);
    for (layer, w) in [(0, Some(window)), (1, None)] {
        let mask = fixture::expected(layer, "mask", &[SEQ_LEN, SEQ_LEN]);
        for m in 0..SEQ_LEN {
            for n in 0..SEQ_LEN {
                let seen = mask[m * SEQ_LEN + n] == 0.0;
                assert_eq!(seen, may_attend(m, n, w), "layer {layer}: query {m}, key {n}");
            }
        }
    }
    let mask = fixture::expected(0, "mask", &[SEQ_LEN, SEQ_LEN]);
    let seen: Vec<usize> = (0..SEQ_LEN).filter(|&n| mask[20 * SEQ_LEN + n] == 0.0).collect();
    assert_eq!(seen, (13..=20).collect::<Vec<_>>());
}

/// After 40 tokens the windowed layer's rolling cache holds 8 keys (chapter 10's buffer keeps the
/// window); Hugging Face's holds 7, dropping the oldest before the next token arrives rather
/// than after; the full layer's holds all 40.
#[test]
fn the_rolling_cache_holds_the_window() {
    let held: Vec<u64> = fixture::meta()["config"]["cache_held"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(held, [7, 40]);
    assert_eq!((fixture::differences(0).held, fixture::differences(1).held), (8, 40));
}

/// The page: every difference under 1e-6; head 3 of the windowed layer (logit 1.74) gives its
/// sink 0.280 of the last query's weight, the other heads at most 0.014, the full layer's at most
/// 0.002.
#[test]
fn the_pages_sink_numbers() {
    for layer in [0, 1] {
        let d = fixture::differences(layer);
        // the CPU's bound; on a GPU (`support::ON_GPU`) the parity test's 1e-5
        let bound = if support::ON_GPU { 1e-5 } else { 1e-6 };
        assert!([d.output, d.weights, d.cached].iter().all(|&x| x < bound), "{d:?}");
    }
    let shown = |x: f32, places: i32| (x * 10f32.powi(places)).round() / 10f32.powi(places);
    let (sinks, local) = fixture::last_query_shares(0);
    let (_, full) = fixture::last_query_shares(1);
    assert_eq!((shown(sinks[3], 2), shown(local[3], 3)), (1.74, 0.280));
    assert_eq!(local[..3].iter().map(|&x| shown(x, 3)).fold(0.0, f32::max), 0.014);
    assert_eq!(full.iter().map(|&x| shown(x, 3)).fold(0.0, f32::max), 0.002);
}

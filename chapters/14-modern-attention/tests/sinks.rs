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

/// One logit in both layers: with every head's logit set to head 3's of the windowed layer
/// (1.74), the full layer's heads give their sink 0.044 to 0.101 of the last query's weight from
/// 40 keys (head 3: 0.073), the windowed layer's heads 0.263 to 0.420 from 8. The full layer's
/// own logits are all below -1.5.
#[test]
fn one_logit_in_both_layers() {
    let shown = |x: f32| (x * 1000.0).round() / 1000.0;
    let range = |v: &[f32]| {
        let (lo, hi) = v.iter().fold((f32::MAX, f32::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        (shown(lo), shown(hi))
    };
    let (sinks, _) = fixture::last_query_shares(0);
    let (full_sinks, _) = fixture::last_query_shares(1);
    assert!(full_sinks.iter().all(|&s| s < -1.5), "{full_sinks:?}");
    let full = fixture::last_query_shares_with(1, sinks[3]);
    let local = fixture::last_query_shares_with(0, sinks[3]);
    assert_eq!(shown(full[3]), 0.073);
    assert_eq!(range(&full), (0.044, 0.101));
    assert_eq!(range(&local), (0.263, 0.420));
    // with its own logit the windowed layer's head 3 gives 0.280, as the page says
    assert_eq!(shown(local[3]), 0.280);
}

/// The fixture was made with transformers 5.24.0; its two files come to about 680 KB.
#[test]
fn the_fixture_is_transformers_5_24() {
    assert_eq!(fixture::meta()["transformers"], "5.24.0");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let bytes: u64 = ["sinks.safetensors", "sinks_expected.safetensors"]
        .iter()
        .map(|f| std::fs::metadata(dir.join(f)).unwrap().len())
        .sum();
    assert_eq!((bytes as f64 / 1e4).round() * 10.0, 680.0, "{bytes}");
}

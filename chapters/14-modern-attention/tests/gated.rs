//! Gated attention against Hugging Face's `Qwen3NextAttention`.

use ch14_modern_attention::gated::{fixture, load::split_query_and_gate};

/// Both layers within 1e-5 of Hugging Face's, whole and through the cache.
#[test]
fn both_layers_are_qwen3_next_attention() {
    for layer in [0, 1] {
        let d = fixture::differences(layer);
        println!("layer {layer}: {d:?}");
        for (what, diff) in [("output", d.output), ("weights", d.weights), ("cached", d.cached)] {
            assert!(diff < 1e-5, "layer {layer} {what}: {diff}");
        }
    }
}

/// The fixture was made with transformers 5.24.0, the version the page names.
#[test]
fn the_fixture_is_transformers_5_24() {
    assert_eq!(fixture::meta()["transformers"], "5.24.0");
}

/// `q_proj`'s rows come head by head, each head's query rows and then its gate rows.
#[test]
fn the_query_projection_interleaves_query_and_gate_by_head() {
    // 2 heads of 2 features, width 1: rows q0 q0 g0 g0 q1 q1 g1 g1
    let w = [0.0, 1.0, 10.0, 11.0, 2.0, 3.0, 12.0, 13.0];
    let (q, g) = split_query_and_gate(&w, 2, 2);
    assert_eq!((q, g), (vec![0.0, 1.0, 2.0, 3.0], vec![10.0, 11.0, 12.0, 13.0]));
}

/// The page: both layers within 4.2e-7 of Hugging Face's (on the CPU; the parity test's 1e-5 on a
/// GPU, `support::ON_GPU`).
#[test]
fn the_pages_gated_numbers() {
    let bound = if support::ON_GPU { 1e-5 } else { 4.25e-7 };
    for layer in [0, 1] {
        let d = fixture::differences(layer);
        assert!([d.output, d.weights, d.cached].iter().all(|&x| x < bound), "{d:?}");
    }
    if !support::ON_GPU {
        assert_eq!(format!("{:.1e}", fixture::differences(0).output), "4.2e-7");
    }
}

//! Multi-head latent attention against Hugging Face's `DeepseekV3ForCausalLM` (transformers
//! 5.24.0, `fixtures/make_mla.py`): the whole sequence, and the cached steps in both forms.

use ch14_modern_attention::config::TINY_MLA;
use ch14_modern_attention::mla::fixture::{self, halves_first};

#[test]
fn the_fixture_is_the_chapters_configuration() {
    let meta = fixture::meta();
    let config = &meta["config"];
    let c = TINY_MLA;
    for (key, want) in [
        ("vocab_size", c.vocab_size),
        ("hidden_size", c.hidden_size),
        ("intermediate_size", c.intermediate_size),
        ("num_hidden_layers", c.num_hidden_layers),
        ("num_attention_heads", c.num_attention_heads),
        ("num_key_value_heads", c.num_attention_heads),
        ("q_lora_rank", c.q_lora_rank),
        ("kv_lora_rank", c.kv_lora_rank),
        ("qk_nope_head_dim", c.qk_nope_head_dim),
        ("qk_rope_head_dim", c.qk_rope_head_dim),
        ("v_head_dim", c.v_head_dim),
        ("first_k_dense_replace", c.num_hidden_layers),
    ] {
        assert_eq!(config[key].as_u64(), Some(want as u64), "{key}");
    }
    assert_eq!(config["rms_norm_eps"].as_f64(), Some(c.rms_norm_eps));
    assert_eq!(config["rope_parameters"]["rope_type"], "default");
    assert_eq!(config["rope_parameters"]["rope_theta"].as_f64(), Some(c.rope_theta));
    assert_eq!(config["rope_interleave"], true);
    assert_eq!(meta["transformers"], "5.24.0");
    assert_eq!(fixture::input_ids().len(), 40);
    // the fixtures README: the weights file is about 340 KB
    let weights = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mla.safetensors");
    let bytes = std::fs::metadata(weights).unwrap().len();
    assert_eq!((bytes as f64 / 1e4).round() * 10.0, 340.0, "{bytes}");
}

/// Every number within 1e-5 of Hugging Face's: the whole sequence (logits, last hidden state,
/// layer 0's attention weights), the cached steps in both forms, and what the cache holds, which
/// is `(16 + 8) × 4` bytes per token.
#[test]
fn both_forms_are_deepseek_v3s() {
    let d = fixture::differences();
    println!("{d:?}");
    for (what, diff) in [
        ("logits", d.logits),
        ("hidden", d.hidden),
        ("weights", d.weights),
        ("cached, expanded", d.cached_expanded),
        ("cached, absorbed", d.cached_absorbed),
        ("cached, absorbed in turn", d.cached_in_turn),
        ("cached keys and values", d.cached_keys_values),
        ("latent", d.latent),
        ("shared key", d.k_rot),
    ] {
        assert!(diff < 1e-5, "{what}: {diff}");
    }
    assert_eq!(d.cache_bytes, 40 * (16 + 8) * 4);
    // 4 heads' keys (16 + 8) and values (12)
    assert_eq!(d.kv_cache_bytes, 40 * 4 * (16 + 8 + 12) * 4);
}

/// Hugging Face's order of a turned key: the first of every pair, then the second.
#[test]
fn halves_first_regroups_the_pairs() {
    assert_eq!(
        halves_first(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], 4),
        [0.0, 2.0, 1.0, 3.0, 4.0, 6.0, 5.0, 7.0]
    );
}

/// The page's figures: every difference under 4e-6, the absorbed forms' cached logits 3.7e-6
/// (folded) and 3.3e-6 (in turn).
#[test]
fn the_pages_differences() {
    let d = fixture::differences();
    let all = [
        d.logits,
        d.hidden,
        d.weights,
        d.cached_expanded,
        d.cached_absorbed,
        d.cached_in_turn,
        d.cached_keys_values,
        d.latent,
        d.k_rot,
    ];
    // the page's figures are the CPU's; on a GPU (`support::ON_GPU`) cuBLAS sums in another
    // order: an H100 gave 4.3e-6 for the last hidden states, so there the bound is the
    // parity test's 1e-5 and the printed digits are not asserted
    let bound = if support::ON_GPU { 1e-5 } else { 4e-6 };
    assert!(all.iter().all(|&x| x < bound), "{all:?}");
    if !support::ON_GPU {
        assert_eq!(format!("{:.1e}", d.cached_absorbed), "3.7e-6");
        assert_eq!(format!("{:.1e}", d.cached_in_turn), "3.3e-6");
    }
}

/// At DeepSeek-V2-Lite's attention sizes the cache holds exactly `(512 + 64) × 4` bytes per token and
/// layer in `f32`, 2,304, where 16 heads' keys (`128 + 64`) and values (`128`) would take 20,480.
#[test]
fn a_lite_layers_cache_per_token() {
    use ch14_modern_attention::mla::speed::{lite_cache, HEADS, KV_RANK, NOPE, ROPE, V};
    use ch14_modern_attention::mla::LatentCache;
    let dev = support::Dev::default();
    let mut cache = LatentCache::<KV_RANK, ROPE, _>::new();
    cache.append(lite_cache(&dev, 100));
    cache.append(lite_cache(&dev, 28));
    assert_eq!(cache.len(), 128);
    assert_eq!(cache.bytes() / 128, (512 + 64) * 4);
    assert_eq!(cache.bytes() / 128, 2304);
    assert_eq!(HEADS * (NOPE + ROPE + V) * 4, 20_480);
    // the cache of expanded keys and values holds exactly that
    use ch14_modern_attention::mla::{KvCache, LatentAttention};
    let layer = ch14_modern_attention::mla::speed::lite_layer(&dev);
    let mut kv = KvCache::<HEADS, NOPE, ROPE, V, _>::new();
    kv.append(LatentAttention::expand(&layer, &lite_cache(&dev, 3)));
    kv.append(layer.expand(&lite_cache(&dev, 2)));
    assert_eq!((kv.len(), kv.bytes()), (5, 5 * 20_480));
}

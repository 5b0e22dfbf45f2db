//! The cache table's numbers, from the published configurations.

use ch14_modern_attention::cache_cost::{Kept, PUBLISHED};

fn model(name: &str) -> &'static ch14_modern_attention::cache_cost::Published {
    PUBLISHED.iter().find(|m| m.name == name).unwrap()
}

/// Bytes per token with every layer keeping every token: `2 × kv_heads × head_dim × 2 bytes` per
/// layer for keys and values, `(512 + 64) × 2` for DeepSeek-V3's latents.
#[test]
fn bytes_per_token_from_the_configurations() {
    let per_token: Vec<(&str, usize)> =
        PUBLISHED.iter().map(|m| (m.name, m.bytes_per_token_unwindowed())).collect();
    assert_eq!(
        per_token,
        [
            ("Llama 3 8B", 2 * 8 * 128 * 2 * 32),
            ("Qwen3-8B", 2 * 8 * 128 * 2 * 36),
            ("Gemma 3 27B", 2 * 16 * 128 * 2 * 62),
            ("gpt-oss-20b", 2 * 8 * 64 * 2 * 24),
            ("DeepSeek-V3", (512 + 64) * 2 * 61),
        ]
    );
    assert_eq!(per_token[0].1, 131_072);
    assert_eq!(per_token[4].1, 70_272);
}

/// After 32,768 tokens the windowed layers hold 1,024 (Gemma 3) or 128 (gpt-oss) tokens each.
#[test]
fn windows_cap_the_local_layers() {
    let at = |name: &str| model(name).cache_bytes(32_768);
    assert_eq!(at("Gemma 3 27B"), 8192 * (10 * 32_768 + 52 * 1024));
    assert_eq!(at("gpt-oss-20b"), 2048 * (12 * 32_768 + 12 * 128));
    assert_eq!(at("Gemma 3 27B") / 32_768, 95_232);
    assert_eq!(at("gpt-oss-20b") / 32_768, 24_672);
    // below the window every layer keeps every token
    assert_eq!(model("Gemma 3 27B").cache_bytes(1000), 1000 * 507_904);
    assert_eq!(at("Llama 3 8B"), 4 << 30);
}

/// DeepSeek-V3's 128 heads, had they cached their keys (`128 + 64` wide) and values (`128`):
/// 71 times the latents.
#[test]
fn the_latent_against_expanded_keys_and_values() {
    let latent = Kept::Latent { kv_lora_rank: 512, qk_rope_head_dim: 64 }.numbers();
    let expanded = 128 * ((128 + 64) + 128);
    assert_eq!((latent, expanded), (576, 40_960));
    // the page's "671 billion parameters": the configuration DeepSeek publishes for it
    assert!(model("DeepSeek-V3").source.ends_with("config_671B.json"));
    assert_eq!(expanded / latent, 71);
}

/// The page's KiB per token: Gemma 3 27B with no windows and after 32,768 tokens, gpt-oss-20b
/// after 32,768 tokens, DeepSeek-V3; and the totals of Llama 3 8B and Qwen3-8B in GiB.
#[test]
fn the_pages_kib_and_gib() {
    let kib = |b: usize| (b as f64 / 1024.0).round() as usize;
    let gemma = model("Gemma 3 27B");
    assert_eq!(kib(gemma.bytes_per_token_unwindowed()), 496);
    assert_eq!(kib(gemma.cache_bytes(32_768) / 32_768), 93);
    assert_eq!(kib(model("gpt-oss-20b").cache_bytes(32_768) / 32_768), 24);
    assert_eq!(kib(model("DeepSeek-V3").bytes_per_token_unwindowed()), 69);
    let gib = |name: &str| model(name).cache_bytes(32_768) as f64 / (1u64 << 30) as f64;
    assert_eq!((gib("Llama 3 8B"), gib("Qwen3-8B")), (4.0, 4.5));
    // DeepSeek-V3 caches less per token than Llama 3 8B
    assert!(
        model("DeepSeek-V3").bytes_per_token_unwindowed()
            < model("Llama 3 8B").bytes_per_token_unwindowed()
    );
}

//! The KV cache's memory for published configurations.

use ch10_language_models::memory::{binary_size, HALF, PUBLISHED};

#[test]
fn published_caches_per_token() {
    let per_token: Vec<usize> = PUBLISHED.iter().map(|m| m.bytes_per_token(HALF)).collect();
    assert_eq!(per_token, [36_864, 524_288, 327_680, 131_072]);
    let text: Vec<String> = per_token.iter().map(|&b| binary_size(b)).collect();
    assert_eq!(text, ["36 KiB", "512 KiB", "320 KiB", "128 KiB"]);
}

/// At each model's full context: Mistral's rolling buffer stops at its 4,096-token window.
#[test]
fn published_caches_at_full_context() {
    let full: Vec<String> =
        PUBLISHED.iter().map(|m| binary_size(m.bytes_for(m.context, HALF))).collect();
    assert_eq!(full, ["36 MiB", "2 GiB", "1.25 GiB", "512 MiB"]);
    let mistral = PUBLISHED[3];
    assert_eq!(mistral.bytes_for(32_768, HALF), mistral.bytes_for(4096, HALF));
    assert_eq!(binary_size(mistral.bytes_per_token(HALF) * 32_768), "4 GiB");
}

/// What grouped-query attention saves: Llama 2 70B with 64 key/value heads would need 8 times
/// the cache, 2.5 MiB per token.
#[test]
fn grouped_query_attention_saves_the_group_size() {
    let llama70 = PUBLISHED[2];
    let mha = llama70.as_multi_head();
    assert_eq!(mha.bytes_per_token(HALF), 8 * llama70.bytes_per_token(HALF));
    assert_eq!(binary_size(mha.bytes_per_token(HALF)), "2.5 MiB");
    assert_eq!(binary_size(mha.bytes_for(4096, HALF)), "10 GiB");
}

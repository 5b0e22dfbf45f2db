//! The KV cache's memory for published configurations.

use ch10_language_models::llama::config::{
    LLAMA2_70B, LLAMA2_7B, MISTRAL_7B_V01, MISTRAL_PAPER_CONTEXT, PUBLISHED,
};
use ch10_language_models::llama::memory::{binary_size, HALF};

#[test]
fn published_caches_per_token() {
    let per_token: Vec<usize> = PUBLISHED.iter().map(|m| m.cache_bytes_per_token(HALF)).collect();
    assert_eq!(per_token, [36_864, 524_288, 327_680, 131_072]);
    let text: Vec<String> = per_token.iter().map(|&b| binary_size(b)).collect();
    assert_eq!(text, ["36 KiB", "512 KiB", "320 KiB", "128 KiB"]);
}

/// At the longest sequence each configuration accepts: Mistral's rolling buffer stops at its
/// 4,096-token window. At the paper's context of 8,192 a full cache would hold 1 GiB, at v0.1's
/// `max_position_embeddings` of 32,768 it would hold 4 GiB.
#[test]
fn published_caches_at_full_context() {
    let full: Vec<String> = PUBLISHED
        .iter()
        .map(|m| binary_size(m.cache_bytes(1, m.max_position_embeddings, HALF)))
        .collect();
    assert_eq!(full, ["36 MiB", "2 GiB", "1.25 GiB", "512 MiB"]);
    let mistral = MISTRAL_7B_V01;
    assert_eq!(mistral.max_position_embeddings, 32_768);
    assert_eq!(mistral.cache_bytes(1, 32_768, HALF), mistral.cache_bytes(1, 4096, HALF));
    assert_eq!(binary_size(mistral.cache_bytes_per_token(HALF) * 32_768), "4 GiB");
    assert_eq!(MISTRAL_PAPER_CONTEXT, 8192);
    assert_eq!(binary_size(mistral.cache_bytes_per_token(HALF) * MISTRAL_PAPER_CONTEXT), "1 GiB");
}

/// The cache grows with the batch: every sequence keeps its own keys and values.
#[test]
fn a_batch_keeps_one_cache_per_sequence() {
    let one = LLAMA2_7B.cache_bytes(1, 4096, HALF);
    assert_eq!(LLAMA2_7B.cache_bytes(8, 4096, HALF), 8 * one);
    assert_eq!(binary_size(LLAMA2_7B.cache_bytes(8, 4096, HALF)), "16 GiB");
}

/// What grouped-query attention saves: Llama 2 70B with 64 key/value heads would need 8 times
/// the cache, 2.5 MiB per token.
#[test]
fn grouped_query_attention_saves_the_group_size() {
    let mha = LLAMA2_70B.as_multi_head();
    assert_eq!(LLAMA2_70B.group(), 8);
    assert_eq!(mha.cache_bytes_per_token(HALF), 8 * LLAMA2_70B.cache_bytes_per_token(HALF));
    assert_eq!(binary_size(mha.cache_bytes_per_token(HALF)), "2.5 MiB");
    assert_eq!(binary_size(mha.cache_bytes(1, 4096, HALF)), "10 GiB");
}

/// Llama 2 70B has 2.5 times the layers of Llama 2 7B (80 against 32), yet a smaller cache per
/// token.
#[test]
fn llama_2_70b_has_two_and_a_half_times_the_layers() {
    assert_eq!((LLAMA2_70B.num_hidden_layers, LLAMA2_7B.num_hidden_layers), (80, 32));
    assert_eq!(LLAMA2_70B.num_hidden_layers as f64 / LLAMA2_7B.num_hidden_layers as f64, 2.5);
    assert!(LLAMA2_70B.cache_bytes_per_token(HALF) < LLAMA2_7B.cache_bytes_per_token(HALF));
}

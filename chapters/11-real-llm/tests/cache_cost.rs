//! SmolLM2's cache: bytes per token and at its 8,192-token context, in the decode path's `f32`
//! storage (which allocates exactly that), and what 3 key/value heads save against 9.

use ch10_language_models::llama::memory::binary_size;
use ch11_real_llm::decode::{Cache, Policy};
use ch11_real_llm::smollm2::CONFIG;

#[test]
fn smollm2s_cache_per_token_and_at_its_context() {
    let f32_bytes = std::mem::size_of::<f32>();
    // 2 (key, value) x 30 layers x 3 heads x 64 x 4 bytes
    assert_eq!(CONFIG.cache_bytes_per_token(f32_bytes), 46_080);
    assert_eq!(CONFIG.cache_bytes_per_token(1), 11_520); // numbers per token
    assert_eq!(CONFIG.max_position_embeddings, 8192);
    let context = CONFIG.cache_bytes(1, 8192, f32_bytes);
    assert_eq!(binary_size(context), "360 MiB");
    // the decode path allocates exactly that, once
    let cache =
        Cache::new(Policy::Full { capacity: 8192 }, CONFIG.num_hidden_layers, CONFIG.kv_width());
    assert_eq!(cache.bytes(), context);
    // with a key/value head per query head (9): three times as much
    let multi_head = CONFIG.as_multi_head();
    assert_eq!(multi_head.cache_bytes_per_token(f32_bytes), 138_240);
    assert_eq!(binary_size(multi_head.cache_bytes(1, 8192, f32_bytes)), "1.05 GiB");
    // StreamingLLM's 256 slots hold the same at any length
    let small = Cache::new(Policy::Streaming { sinks: 4, recent: 252 }, 30, CONFIG.kv_width());
    assert_eq!(binary_size(small.bytes()), "11.25 MiB");
}

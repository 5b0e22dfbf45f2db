//! The published sizes the page names beside its tiny fixtures.

use ch14_modern_attention::cache_cost::{Kept, PUBLISHED};
use ch14_modern_attention::config::{
    DEEPSEEK_V3_YARN_FACTOR, GEMMA3_1B_WINDOW, GEMMA3_27B, GEMMA3_GLOBAL_LINEAR_FACTOR,
    GEMMA3_WINDOW, QWEN3_NEXT, QWEN3_NEXT_FULL_ATTENTION_INTERVAL,
    QWEN3_NEXT_PARTIAL_ROTARY_FACTOR,
};

/// Qwen3-Next turns the first quarter of each head's features and puts three linear-attention
/// layers before each attention layer; Gemma 3's windows are 1,024 (512 in the 1B) and its global
/// layers stretch RoPE by 8; DeepSeek-V3's YaRN factor is 40; Qwen3's heads are 128 wide.
#[test]
fn the_published_sizes_the_page_names() {
    assert_eq!(QWEN3_NEXT_PARTIAL_ROTARY_FACTOR, 1.0 / 4.0);
    assert_eq!(QWEN3_NEXT_FULL_ATTENTION_INTERVAL - 1, 3);
    assert_eq!((GEMMA3_WINDOW, GEMMA3_1B_WINDOW), (1024, 512));
    assert_eq!(GEMMA3_GLOBAL_LINEAR_FACTOR, 8.0);
    assert_eq!(DEEPSEEK_V3_YARN_FACTOR, 40.0);
    let qwen3 = PUBLISHED.iter().find(|m| m.name == "Qwen3-8B").unwrap();
    assert_eq!(qwen3.kept, Kept::KeysAndValues { kv_heads: 8, head_dim: 128 });
    let gemma = PUBLISHED.iter().find(|m| m.name == "Gemma 3 27B").unwrap();
    assert_eq!(gemma.windowed.unwrap().1, GEMMA3_WINDOW);
}

/// Heads × head size against the stream's width: 4,096 against 5,376 (Gemma 3 27B) and 2,048
/// (Qwen3-Next), which chapter 10's attention (`q_proj` `HIDDEN × HIDDEN`) cannot hold; the timed
/// local layer takes Gemma 3 27B's heads on a 4,096-wide stream.
#[test]
fn heads_wider_or_narrower_than_the_stream() {
    use ch14_modern_attention::local_global::speed::{HEADS, HEAD_DIM, HIDDEN, KV_HEADS};
    let together = |m: &ch14_modern_attention::config::PublishedSizes| {
        (m.num_attention_heads, m.head_dim, m.num_attention_heads * m.head_dim, m.hidden_size)
    };
    assert_eq!(together(&GEMMA3_27B), (32, 128, 4096, 5376));
    assert_eq!(together(&QWEN3_NEXT), (16, 256, 4096, 2048));
    assert_eq!((HEADS, KV_HEADS, HEAD_DIM, HIDDEN), (32, 16, 128, HEADS * HEAD_DIM));
    assert_eq!(HIDDEN, 4096);
}

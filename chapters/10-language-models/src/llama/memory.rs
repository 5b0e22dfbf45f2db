//! What the KV cache costs published models: per token, every layer keeps one key and one value
//! vector per key/value head, `2 * layers * kv_heads * head_dim` numbers.

/// The sizes of a published model that decide its cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheShape {
    pub name: &'static str,
    pub layers: usize,
    /// query heads
    pub heads: usize,
    /// key/value heads: `heads` for multi-head attention, fewer for grouped-query attention
    pub kv_heads: usize,
    pub head_dim: usize,
    /// the longest context it was trained for
    pub context: usize,
    /// the sliding window, for a model whose cache is a rolling buffer
    pub window: Option<usize>,
}

/// The published configurations (their `config.json` on the Hugging Face hub, and the papers):
/// GPT-2 small (Radford et al. 2019), Llama 2 7B and 70B (Touvron et al. 2023), Mistral 7B
/// (Jiang et al. 2023).
// ANCHOR: published
pub const PUBLISHED: [CacheShape; 4] = [
    CacheShape {
        name: "GPT-2 small",
        layers: 12,
        heads: 12,
        kv_heads: 12,
        head_dim: 64,
        context: 1024,
        window: None,
    },
    CacheShape {
        name: "Llama 2 7B",
        layers: 32,
        heads: 32,
        kv_heads: 32,
        head_dim: 128,
        context: 4096,
        window: None,
    },
    CacheShape {
        name: "Llama 2 70B",
        layers: 80,
        heads: 64,
        kv_heads: 8,
        head_dim: 128,
        context: 4096,
        window: None,
    },
    CacheShape {
        name: "Mistral 7B",
        layers: 32,
        heads: 32,
        kv_heads: 8,
        head_dim: 128,
        context: 32768,
        window: Some(4096),
    },
];
// ANCHOR_END: published

/// Bytes per number in half precision (`float16` / `bfloat16`), how these models are served.
pub const HALF: usize = 2;

impl CacheShape {
    /// Bytes of cache per token: `2 (key and value) * layers * kv_heads * head_dim * bytes`.
    // ANCHOR: per_token
    pub fn bytes_per_token(&self, bytes: usize) -> usize {
        2 * self.layers * self.kv_heads * self.head_dim * bytes
    }
    // ANCHOR_END: per_token

    /// Bytes of cache for one sequence of `tokens`: a rolling buffer stops at its window.
    pub fn bytes_for(&self, tokens: usize, bytes: usize) -> usize {
        let held = self.window.map_or(tokens, |w| tokens.min(w));
        held * self.bytes_per_token(bytes)
    }

    /// The same model with one key/value head per query head: what grouped-query attention saves.
    pub fn as_multi_head(&self) -> CacheShape {
        CacheShape { kv_heads: self.heads, ..*self }
    }
}

/// `n` bytes in the largest binary unit that keeps a number >= 1, as "512 KiB" or "1.25 GiB".
pub fn binary_size(n: usize) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text} {}", units[unit])
}

//! What the KV cache costs published models: per token of one sequence, every layer keeps one key
//! and one value vector per key/value head, `2 * layers * kv_heads * head_dim` numbers; a batch
//! of `b` sequences keeps `b` times as much.

use crate::llama::config::Config;

/// Bytes per number in half precision (`float16` / `bfloat16`), how these models are served.
pub const HALF: usize = 2;

impl Config {
    /// Bytes of cache per token of one sequence: `2 (key and value) * layers * kv_heads *
    /// head_dim * bytes` (`bytes` per number).
    // ANCHOR: per_token
    pub fn cache_bytes_per_token(&self, bytes: usize) -> usize {
        2 * self.num_hidden_layers * self.num_key_value_heads * self.head_dim * bytes
    }
    // ANCHOR_END: per_token

    /// Bytes of cache for a batch of `batch` sequences of `tokens` each: a rolling buffer stops
    /// at its window.
    pub fn cache_bytes(&self, batch: usize, tokens: usize, bytes: usize) -> usize {
        let held = self.sliding_window.map_or(tokens, |w| tokens.min(w));
        batch * held * self.cache_bytes_per_token(bytes)
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

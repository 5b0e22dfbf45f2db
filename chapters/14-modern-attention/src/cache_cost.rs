//! What a model's KV cache costs, computed from its published configuration: bytes per token for
//! the layers that keep every token, the windowed layers that keep at most `window`, and the
//! latent layers of multi-head latent attention that keep `kv_lora_rank + qk_rope_head_dim`
//! numbers per token whatever the number of heads.

use support::params::thousands;

/// What one layer keeps per token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// A key and a value per key/value head: `2 × kv_heads × head_dim` numbers.
    KeysAndValues { kv_heads: usize, head_dim: usize },
    /// Multi-head latent attention: the latent and the shared rotary key.
    Latent { kv_lora_rank: usize, qk_rope_head_dim: usize },
}

impl Kept {
    /// Numbers per token.
    pub fn numbers(&self) -> usize {
        match *self {
            Kept::KeysAndValues { kv_heads, head_dim } => 2 * kv_heads * head_dim,
            Kept::Latent { kv_lora_rank, qk_rope_head_dim } => kv_lora_rank + qk_rope_head_dim,
        }
    }
}

/// A published model's attention, as its configuration states it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Published {
    pub name: &'static str,
    /// Where the numbers come from.
    pub source: &'static str,
    pub layers: usize,
    pub kept: Kept,
    /// Layers that keep only the last `window` tokens, and `window`.
    pub windowed: Option<(usize, usize)>,
    /// Bytes per number in the published weights' type (bfloat16: 2).
    pub bytes_per_number: usize,
}

// ANCHOR: published
/// The five models of the chapter's table, from their published configurations.
pub const PUBLISHED: [Published; 5] = [
    Published {
        name: "Llama 3 8B",
        source: "meta-llama/Meta-Llama-3-8B config.json; Meta's llama-models sku_list.py",
        layers: 32,
        kept: Kept::KeysAndValues { kv_heads: 8, head_dim: 128 },
        windowed: None,
        bytes_per_number: 2,
    },
    Published {
        name: "Qwen3-8B",
        source: "Qwen/Qwen3-8B config.json",
        layers: 36,
        kept: Kept::KeysAndValues { kv_heads: 8, head_dim: 128 },
        windowed: None,
        bytes_per_number: 2,
    },
    Published {
        name: "Gemma 3 27B",
        source: "google/gemma-3-27b text_config; Google's gemma_pytorch get_config_for_27b_v3",
        layers: 62,
        kept: Kept::KeysAndValues { kv_heads: 16, head_dim: 128 },
        // five local layers to one global: 52 of the 62 keep the last 1,024 tokens
        windowed: Some((52, 1024)),
        bytes_per_number: 2,
    },
    Published {
        name: "gpt-oss-20b",
        source: "openai/gpt-oss-20b config.json (layer_types); OpenAI's gpt_oss/torch/model.py",
        layers: 24,
        kept: Kept::KeysAndValues { kv_heads: 8, head_dim: 64 },
        // alternating: 12 of the 24 keep the last 128 tokens
        windowed: Some((12, 128)),
        bytes_per_number: 2,
    },
    Published {
        name: "DeepSeek-V3",
        source: "deepseek-ai/DeepSeek-V3 inference/configs/config_671B.json",
        layers: 61,
        kept: Kept::Latent { kv_lora_rank: 512, qk_rope_head_dim: 64 },
        windowed: None,
        bytes_per_number: 2,
    },
];
// ANCHOR_END: published

impl Published {
    /// Bytes the whole cache holds after `tokens` tokens of one sequence.
    // ANCHOR: bytes
    pub fn cache_bytes(&self, tokens: usize) -> usize {
        let per_layer_token = self.kept.numbers() * self.bytes_per_number;
        let (windowed, window) = self.windowed.unwrap_or((0, 0));
        let full = self.layers - windowed;
        per_layer_token * (full * tokens + windowed * tokens.min(window))
    }
    // ANCHOR_END: bytes

    /// Bytes per token if every layer kept every token (no windows).
    pub fn bytes_per_token_unwindowed(&self) -> usize {
        self.kept.numbers() * self.bytes_per_number * self.layers
    }
}

/// The page's table: each model's cache per token with every layer keeping every token, and
/// what the cache holds after `tokens` tokens, in total and per token.
pub fn table(tokens: usize) -> String {
    let mut out = format!(
        "{:<12} {:>8} {:>18} {:>16} {:>15}\n",
        "model", "layers", "bytes/token, all", "at ctx, total", "at ctx, /token"
    );
    for m in &PUBLISHED {
        let total = m.cache_bytes(tokens);
        out += &format!(
            "{:<12} {:>8} {:>18} {:>12.2} GiB {:>15}\n",
            m.name,
            m.layers,
            thousands(m.bytes_per_token_unwindowed()),
            total as f64 / (1u64 << 30) as f64,
            thousands(total / tokens),
        );
    }
    out + &format!("(ctx = {} tokens of one sequence, bfloat16)\n", thousands(tokens))
}

//! A model's sizes, stated once. [`Config`] names them as Hugging Face's `config.json` does; the
//! model's type ([`TinyLlama`](crate::TinyLlama)), its parameter table
//! ([`params`](crate::llama::params)) and its cache ([`memory`](crate::llama::memory)) all read
//! them from here, so a new configuration is one more named preset.

/// The sizes of a decoder-only model, under the names of Hugging Face's `config.json`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// how the book names it
    pub name: &'static str,
    pub vocab_size: usize,
    /// the width of every token vector
    pub hidden_size: usize,
    /// query heads
    pub num_attention_heads: usize,
    /// key/value heads: as many as the query heads for multi-head attention, fewer for
    /// grouped-query attention
    pub num_key_value_heads: usize,
    /// the width of one head
    pub head_dim: usize,
    /// the hidden width of the feed-forward network
    pub intermediate_size: usize,
    pub num_hidden_layers: usize,
    /// the longest sequence the configuration accepts (`max_position_embeddings`): a setting of
    /// the published file, not a measure of what the model was trained on
    pub max_position_embeddings: usize,
    /// the sliding window (`sliding_window`), for a model whose cache is a rolling buffer
    pub sliding_window: Option<usize>,
    /// whether the output projection reuses the embedding table (`tie_word_embeddings`)
    pub tie_word_embeddings: bool,
}

impl Config {
    /// `num_key_value_heads * head_dim`: the width of the key and value projections.
    pub const fn kv_width(&self) -> usize {
        self.num_key_value_heads * self.head_dim
    }

    /// How many query heads share one key/value head.
    pub const fn group(&self) -> usize {
        self.num_attention_heads / self.num_key_value_heads
    }

    /// The same sizes with one key/value head per query head: multi-head attention.
    pub const fn as_multi_head(&self) -> Config {
        Config { num_key_value_heads: self.num_attention_heads, ..*self }
    }
}

// ANCHOR: tiny
/// The chapter's model: the Hugging Face parity fixture's sizes and the character model's
/// (vocabulary 96, hidden size 64, 4 query heads and 2 key/value heads of 16, SwiGLU width 160,
/// 2 layers, untied output projection as in Llama).
pub const TINY: Config = Config {
    name: "the chapter's model",
    vocab_size: crate::VOCAB,
    hidden_size: 64,
    num_attention_heads: 4,
    num_key_value_heads: 2,
    head_dim: 64 / 4,
    intermediate_size: 160,
    num_hidden_layers: 2,
    max_position_embeddings: 128,
    sliding_window: None,
    tie_word_embeddings: false,
};
// ANCHOR_END: tiny

/// SmolLM2-135M (Allal et al. 2025), a Llama-family model of Hugging Face: 9 query heads over 3
/// key/value heads of 64, 30 layers, the output projection tied to the embedding.
pub const SMOLLM2_135M: Config = Config {
    name: "SmolLM2-135M",
    vocab_size: 49_152,
    hidden_size: 576,
    num_attention_heads: 9,
    num_key_value_heads: 3,
    head_dim: 576 / 9,
    intermediate_size: 1536,
    num_hidden_layers: 30,
    max_position_embeddings: 8192,
    sliding_window: None,
    tie_word_embeddings: true,
};

/// GPT-2 small (Radford et al. 2019): multi-head attention, 12 heads of 64, 12 layers. Not a
/// Llama (learned positions, LayerNorm, a GELU network): only its cache shape is used here.
pub const GPT2_SMALL: Config = Config {
    name: "GPT-2 small",
    vocab_size: 50_257,
    hidden_size: 768,
    num_attention_heads: 12,
    num_key_value_heads: 12,
    head_dim: 64,
    intermediate_size: 3072,
    num_hidden_layers: 12,
    max_position_embeddings: 1024,
    sliding_window: None,
    tie_word_embeddings: true,
};

/// Llama 2 7B (Touvron et al. 2023): multi-head attention, 32 heads of 128, 32 layers.
pub const LLAMA2_7B: Config = Config {
    name: "Llama 2 7B",
    vocab_size: 32_000,
    hidden_size: 4096,
    num_attention_heads: 32,
    num_key_value_heads: 32,
    head_dim: 128,
    intermediate_size: 11_008,
    num_hidden_layers: 32,
    max_position_embeddings: 4096,
    sliding_window: None,
    tie_word_embeddings: false,
};

/// Llama 2 70B (Touvron et al. 2023): 64 query heads over 8 key/value heads of 128, 80 layers.
pub const LLAMA2_70B: Config = Config {
    name: "Llama 2 70B",
    vocab_size: 32_000,
    hidden_size: 8192,
    num_attention_heads: 64,
    num_key_value_heads: 8,
    head_dim: 128,
    intermediate_size: 28_672,
    num_hidden_layers: 80,
    max_position_embeddings: 4096,
    sliding_window: None,
    tie_word_embeddings: false,
};

/// Mistral 7B v0.1 (Jiang et al. 2023): 32 query heads over 8 key/value heads of 128, 32
/// layers, a sliding window of 4,096. `max_position_embeddings` is v0.1's Hugging Face
/// configuration's 32,768; the paper's Table 1 gives a context of 8,192 ([`MISTRAL_PAPER_CONTEXT`]).
/// Version 0.2 drops the sliding window.
pub const MISTRAL_7B_V01: Config = Config {
    name: "Mistral 7B v0.1",
    vocab_size: 32_000,
    hidden_size: 4096,
    num_attention_heads: 32,
    num_key_value_heads: 8,
    head_dim: 128,
    intermediate_size: 14_336,
    num_hidden_layers: 32,
    max_position_embeddings: 32_768,
    sliding_window: Some(4096),
    tie_word_embeddings: false,
};

/// The context length of Mistral 7B in its paper's Table 1 (`context_len`).
pub const MISTRAL_PAPER_CONTEXT: usize = 8192;

/// The published configurations of the cache table, in its order.
pub const PUBLISHED: [Config; 4] = [GPT2_SMALL, LLAMA2_7B, LLAMA2_70B, MISTRAL_7B_V01];

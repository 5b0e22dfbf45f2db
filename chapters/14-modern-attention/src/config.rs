//! The chapter's model sizes: the tiny configuration its Hugging Face fixtures were made with.

/// A DeepSeek-style model's sizes, by the names of Hugging Face's `DeepseekV3Config`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MlaConfig {
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub intermediate_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub q_lora_rank: usize,
    pub kv_lora_rank: usize,
    pub qk_nope_head_dim: usize,
    pub qk_rope_head_dim: usize,
    pub v_head_dim: usize,
    pub rms_norm_eps: f64,
    pub rope_theta: f64,
}

/// `fixtures/make_mla.py`'s model.
pub const TINY_MLA: MlaConfig = MlaConfig {
    vocab_size: 96,
    hidden_size: 64,
    intermediate_size: 128,
    num_hidden_layers: 2,
    num_attention_heads: 4,
    q_lora_rank: 32,
    kv_lora_rank: 16,
    qk_nope_head_dim: 16,
    qk_rope_head_dim: 8,
    v_head_dim: 12,
    rms_norm_eps: 1e-6,
    rope_theta: 10_000.0,
};

/// [`TINY_MLA`] as a type.
pub type TinyMla<Dev> = crate::mla::LatentLm<
    { TINY_MLA.vocab_size },
    { TINY_MLA.hidden_size },
    { TINY_MLA.num_attention_heads },
    { TINY_MLA.q_lora_rank },
    { TINY_MLA.kv_lora_rank },
    { TINY_MLA.qk_nope_head_dim },
    { TINY_MLA.qk_rope_head_dim },
    { TINY_MLA.v_head_dim },
    { TINY_MLA.intermediate_size },
    Dev,
>;

/// Published sizes the page names beside the fixtures, each as the model's own configuration
/// states it (the fixtures are tiny and leave these out).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PublishedSizes {
    pub name: &'static str,
    /// Where the numbers come from.
    pub source: &'static str,
    pub hidden_size: usize,
    pub num_attention_heads: usize,
    pub head_dim: usize,
}

/// Gemma 3 27B's text model: its 32 heads of 128 are 4,096 wide together, its stream 5,376.
pub const GEMMA3_27B: PublishedSizes = PublishedSizes {
    name: "Gemma 3 27B",
    source: "google/gemma-3-27b-it config.json (text_config)",
    hidden_size: 5376,
    num_attention_heads: 32,
    head_dim: 128,
};

/// Qwen3-Next-80B-A3B: 16 heads of 256 (4,096 together) on a 2,048-wide stream.
pub const QWEN3_NEXT: PublishedSizes = PublishedSizes {
    name: "Qwen3-Next-80B-A3B",
    source: "Qwen/Qwen3-Next-80B-A3B-Instruct config.json; transformers 5.24.0 Qwen3NextConfig",
    hidden_size: 2048,
    num_attention_heads: 16,
    head_dim: 256,
};

/// Qwen3-Next turns `partial_rotary_factor` of each head's features with RoPE, and one layer in
/// every `full_attention_interval` is attention, the others linear attention (Gated DeltaNet):
/// `transformers` 5.24.0's `Qwen3NextConfig` defaults, which the published model uses.
pub const QWEN3_NEXT_PARTIAL_ROTARY_FACTOR: f64 = 0.25;
pub const QWEN3_NEXT_FULL_ATTENTION_INTERVAL: usize = 4;

/// Gemma 3's windows: 1,024 keys in the 4B, 12B and 27B models, 512 in the 1B
/// (`sliding_window` in each model's configuration).
pub const GEMMA3_WINDOW: usize = 1024;
pub const GEMMA3_1B_WINDOW: usize = 512;
/// The 4B, 12B and 27B models' global layers also stretch RoPE linearly
/// (`rope_scaling: {"rope_type": "linear", "factor": 8.0}`).
pub const GEMMA3_GLOBAL_LINEAR_FACTOR: f64 = 8.0;

/// The published DeepSeek-V3 checkpoint's RoPE: YaRN with factor 40 (`rope_scaling` in
/// deepseek-ai/DeepSeek-V3's config.json); its scores are also multiplied by `mscale²`.
pub const DEEPSEEK_V3_YARN_FACTOR: f64 = 40.0;

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

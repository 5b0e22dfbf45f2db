//! Chapter 14: Attention since 2024. Multi-head latent attention (DeepSeek-AI 2024) in its plain
//! and absorbed forms on chapter 10's parts, pinned to Hugging Face's `DeepseekV3ForCausalLM`;
//! what the KV caches of published models cost; how fast each form decodes. QK-norm (Qwen3,
//! OLMo 2) on chapter 10's grouped-query attention, pinned to `Qwen3ForCausalLM` and
//! `Olmo2ForCausalLM`. Gemma 3's local and global layers
//! pinned to `Gemma3ForCausalLM`; learned sinks and alternating windows (gpt-oss) pinned to
//! `GptOssAttention`; gated attention (Qwen3-Next) pinned to `Qwen3NextAttention`.

pub mod cache_cost;
pub mod config;
pub mod figures;
pub mod gated;
pub mod hf;
pub mod local_global;
pub mod mla;
pub mod qk_norm;
pub mod sinks;
pub mod variants;

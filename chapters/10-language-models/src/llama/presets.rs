//! The model types the chapter runs, by name, each read from its [`Config`](super::config::Config).

use crate::llama::config::TINY;
use crate::llama::model::CausalLm;

// ANCHOR: tiny_llama
/// The chapter's model, [`TINY`]: the Hugging Face parity fixture's sizes, and the character
/// model's.
pub type TinyLlama<Dev> = CausalLm<
    { TINY.vocab_size },
    { TINY.hidden_size },
    { TINY.num_attention_heads },
    { TINY.num_key_value_heads },
    { TINY.head_dim },
    { TINY.kv_width() },
    { TINY.intermediate_size },
    { TINY.num_hidden_layers },
    f32,
    Dev,
>;
// ANCHOR_END: tiny_llama

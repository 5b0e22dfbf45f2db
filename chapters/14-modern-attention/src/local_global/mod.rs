//! Local and global layers (Gemma 2 and 3): most layers attend to a window of the latest keys and
//! cache only that window; every sixth attends to everything. Each kind turns its queries and
//! keys with its own RoPE base. Pinned to Hugging Face's `Gemma3ForCausalLM`.

pub mod fixture;
pub mod load;
pub mod model;
pub mod speed;

pub use model::{GemmaBlock, GemmaLm, GemmaPass, Reach};

/// The fixture's size: vocabulary 96, width 64, 4 query heads of 16 over 2 key/value heads,
/// GeGLU 128 wide, 6 layers (`fixtures/make_gemma3.py`).
pub type TinyGemma<Dev> = GemmaLm<96, 64, 4, 2, 16, 32, 128, Dev>;

//! QK-norm (Qwen3, OLMo 2): RMSNorm on queries and keys before RoPE, on chapter 10's
//! grouped-query attention, and the two models around it.

pub mod fixture;
pub mod load;
pub mod model;

pub use load::Family;
pub use model::{NormedAttention, NormedBlock, NormedLm, NormedPass, Placement, QkNorms};

/// The fixtures' size: vocabulary 96, width 64, 4 query heads of 16 over 2 key/value heads,
/// SwiGLU 128 wide, 2 layers (`fixtures/make_qk_norm.py`).
pub type TinyNormed<Dev> = NormedLm<96, 64, 4, 2, 16, 32, 128, Dev>;

//! Two experiments on chapter 10's character model: the same model trained with QK-norm (Qwen3's,
//! per head), with an output gate (Qwen3-Next's), and with neither, from the same weights on the
//! same windows; what each does to the largest attention scores and to the weight on the first
//! position.

pub mod model;
pub mod report;
pub mod train;

pub use model::{Variant, VariantLm};

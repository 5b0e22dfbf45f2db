//! The configurations the chapter runs, by name.

use crate::model::CausalLm;

/// The tiny model of the Hugging Face parity fixture: vocabulary 96, hidden size 64, 4 query heads
/// and 2 key/value heads of 16, SwiGLU width 160, 2 layers.
pub type TinyLlama<Dev> = CausalLm<96, 64, 4, 2, 16, 32, 160, 2, f32, Dev>;

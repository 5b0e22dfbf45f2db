//! Gated attention (Qiu et al. 2025, in Qwen3-Next): a sigmoid gate, computed from the layer's
//! input by the query projection, multiplies each head's output before the output projection.
//! Pinned to Hugging Face's `Qwen3NextAttention`.

pub mod attention;
pub mod fixture;
pub mod load;

pub use attention::GatedAttention;

/// The fixture's layers: 4 query heads of 16 over 2 key/value heads, on a width of 64.
pub type TinyGated<Dev> = GatedAttention<64, 4, 2, 16, 32, Dev>;

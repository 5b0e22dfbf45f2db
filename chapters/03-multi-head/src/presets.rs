//! The layer sizes this chapter runs, by name, each the `nn.MultiheadAttention` it matches.

use crate::MultiHeadAttention;

/// The chapter's demo layer: `d_model = 64`, 8 heads of 8 (`nn.MultiheadAttention(64, 8)`).
pub type Mha64x8<Dev> = MultiHeadAttention<64, 8, 8, f32, Dev>;

/// `d_model = 64`, 4 heads of 16 (`nn.MultiheadAttention(64, 4)`): same parameters as [`Mha64x8`].
pub type Mha64x4<Dev> = MultiHeadAttention<64, 4, 16, f32, Dev>;

/// `d_model = 16`, 4 heads of 4 (`nn.MultiheadAttention(16, 4)`): the PyTorch parity fixtures and
/// the per-head figures.
pub type Mha16x4<Dev> = MultiHeadAttention<16, 4, 4, f32, Dev>;

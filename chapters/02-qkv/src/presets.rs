//! The layer sizes this chapter runs, by name.

use crate::QkvAttention;

/// The chapter's learned-projection demo: "The cat sat down" (3 dimensions per token) projected to
/// queries, keys and values of 2 dimensions.
pub type Qkv3To2<Dev> = QkvAttention<3, 2, 2, Dev>;

/// The bank-loan example's layer: 2 dimensions in, 2 out, for queries, keys and values alike.
pub type Qkv2To2<Dev> = QkvAttention<2, 2, 2, Dev>;

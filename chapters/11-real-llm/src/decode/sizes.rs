//! The sizes a decoder needs at run time, shared by the forward pass and the attention over the
//! cache.

/// The sizes a decoder needs at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    pub vocab: usize,
    pub hidden: usize,
    pub heads: usize,
    pub kv_heads: usize,
    pub head_dim: usize,
    pub intermediate: usize,
}

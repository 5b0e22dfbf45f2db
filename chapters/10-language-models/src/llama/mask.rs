//! The causal mask by positions, for a block of queries that may start anywhere and keys that may
//! come from a cache.
//!
//! Chapter 1's [`causal_allowed`](ch01_attention::causal_allowed) is the square case: queries and
//! keys both `0 .. n`. With a cache, one new query at position `m` meets the keys `0 ..= m`, and
//! the square mask of the new tokens alone (`1 x 1`) would be wrong; so this mask is written in
//! positions, not indices. With a window `w` a query also forgets keys `w` or more positions back
//! (sliding-window attention, chapter 8).

use std::ops::Range;

use dfdx::prelude::*;

/// Whether a query at position `m` may attend to a key at position `n` (`true` = may attend):
/// the key is not in the future and, with a window of `w` keys, `m - n < w`.
// ANCHOR: allowed
pub fn may_attend(m: usize, n: usize, window: Option<usize>) -> bool {
    n <= m && window.is_none_or(|w| m - n < w)
}
// ANCHOR_END: allowed

/// A sliding window: how many keys a query sees at most (itself included), or `None` for all
/// of them. Mistral's `sliding_window`. Chapter 8's `SlidingWindow { w, .. }` counts the keys
/// before the query instead: it is `Window(Some(w + 1))` here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Window(pub Option<usize>);

/// Stored with a model's other settings as a number, 0 for no window.
impl num_traits::ToPrimitive for Window {
    fn to_i64(&self) -> Option<i64> {
        self.to_u64().map(|n| n as i64)
    }

    fn to_u64(&self) -> Option<u64> {
        Some(self.0.unwrap_or(0) as u64)
    }
}

impl num_traits::NumCast for Window {
    fn from<N: num_traits::ToPrimitive>(n: N) -> Option<Self> {
        n.to_u64().map(|w| Window((w > 0).then_some(w as usize)))
    }
}

/// The `(queries, keys)` mask of the query positions `queries` over the key positions `keys`,
/// `true` = may attend.
///
/// # Panics
/// If either range is empty, or a window of 0 keys is asked for.
pub fn positions_allowed<Dev: Device<f32>>(
    dev: &Dev,
    queries: Range<usize>,
    keys: Range<usize>,
    window: Option<usize>,
) -> Tensor<(usize, usize), bool, Dev> {
    assert!(!queries.is_empty() && !keys.is_empty(), "positions_allowed: empty query or key range");
    assert!(window != Some(0), "positions_allowed: a window must hold at least one key");
    let (nq, nk) = (queries.len(), keys.len());
    let mut flags = Vec::with_capacity(nq * nk);
    for m in queries {
        flags.extend(keys.clone().map(|n| if may_attend(m, n, window) { 1.0f32 } else { 0.0 }));
    }
    dev.tensor_from_vec(flags, (nq, nk)).gt(0.5)
}

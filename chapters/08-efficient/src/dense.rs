//! The dense form: chapter 1's attention, with a pattern written out as its boolean mask. It builds
//! every `n_q x n_k` score, which is exactly the cost the other methods avoid; it is the reference
//! each of them is tested against.

use ch01_attention::{broadcast_mask, scaled_dot_product_attention};
use dfdx::prelude::*;

use crate::heads::Heads;
use crate::pattern::{allowed_mask, Pattern};

/// Chapter 1's [`scaled_dot_product_attention`] on every head, blocked where `pattern` says so
/// (a blocked score is filled with chapter 1's -1e9).
pub fn dense<const D: usize, const DV: usize, Dev: Device<f32>>(
    dev: &Dev,
    q: &Heads,
    k: &Heads,
    v: &Heads,
    pattern: &dyn Pattern,
) -> Heads {
    let h = q.heads;
    let q = q.to_tensor(dev, (1, h, q.n, Const::<D>));
    let k = k.to_tensor(dev, (1, h, k.n, Const::<D>));
    let v = v.to_tensor(dev, (1, h, v.n, Const::<DV>));
    let (n_q, n_k) = (q.shape().2, k.shape().2);
    let flags =
        allowed_mask(pattern, n_q, n_k).into_iter().map(|a| if a { 1.0 } else { 0.0 }).collect();
    let allowed = dev.tensor_from_vec(flags, (n_q, n_k)).gt(0.5);
    let (out, _) = scaled_dot_product_attention(q, k, v, Some(&broadcast_mask(allowed, 1, h)));
    Heads::from_tensor(&out)
}

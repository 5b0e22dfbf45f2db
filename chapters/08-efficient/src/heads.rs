//! The layout every kernel of this chapter works on: several heads of `n` vectors of width `d`,
//! row-major, one head after the other. It is the `as_vec()` of a dfdx tensor
//! `(batch, heads, n, d)` with the batch folded into the heads. With it, the three pieces every
//! kernel is built from: [`dot`], [`softmax_in_place`], and [`per_head`], which runs a one-head
//! kernel on every head.

use dfdx::prelude::*;
use rayon::prelude::*;

/// `heads` matrices of `n` rows and `d` columns, stored one after the other.
#[derive(Clone, Debug, PartialEq)]
pub struct Heads {
    pub heads: usize,
    pub n: usize,
    pub d: usize,
    pub data: Vec<f32>,
}

impl Heads {
    /// # Panics
    /// If `data` does not hold `heads * n * d` values.
    pub fn new(heads: usize, n: usize, d: usize, data: Vec<f32>) -> Self {
        assert_eq!(
            data.len(),
            heads * n * d,
            "Heads::new: {heads} heads of {n} x {d} need {} values, got {}",
            heads * n * d,
            data.len()
        );
        Heads { heads, n, d, data }
    }

    pub fn zeros(heads: usize, n: usize, d: usize) -> Self {
        Heads::new(heads, n, d, vec![0.0; heads * n * d])
    }

    /// Standard normal values from a seeded generator ([`support::normal_vec`]).
    pub fn random(seed: u64, heads: usize, n: usize, d: usize) -> Self {
        Heads::new(heads, n, d, support::normal_vec(seed, heads * n * d))
    }

    /// Head `h`: `n * d` values, row `i` at `i * d`.
    pub fn head(&self, h: usize) -> &[f32] {
        &self.data[h * self.n * self.d..(h + 1) * self.n * self.d]
    }

    /// Row `i` of head `h`.
    pub fn row(&self, h: usize, i: usize) -> &[f32] {
        let start = (h * self.n + i) * self.d;
        &self.data[start..start + self.d]
    }

    /// From a dfdx tensor `(batch, heads, n, D)`: batch and heads become `batch * heads` heads.
    pub fn from_tensor<B: Dim, H: Dim, S: Dim, const D: usize, Dev: Device<f32>>(
        t: &Tensor<(B, H, S, Const<D>), f32, Dev>,
    ) -> Self {
        let (b, h, s, _) = *t.shape();
        Heads::new(b.size() * h.size(), s.size(), D, t.as_vec())
    }

    /// Into a dfdx tensor of the given `(batch, heads, n, D)` shape.
    ///
    /// # Panics
    /// If the shape does not hold these heads.
    pub fn to_tensor<B: Dim, H: Dim, S: Dim, const D: usize, Dev: Device<f32>>(
        &self,
        dev: &Dev,
        shape: (B, H, S, Const<D>),
    ) -> Tensor<(B, H, S, Const<D>), f32, Dev> {
        assert_eq!(
            (shape.0.size() * shape.1.size(), shape.2.size(), D),
            (self.heads, self.n, self.d),
            "Heads::to_tensor: the shape does not hold these heads"
        );
        dev.tensor_from_vec(self.data.clone(), shape)
    }

    /// The largest absolute difference to `other`, element by element.
    ///
    /// # Panics
    /// If the two have different shapes.
    pub fn max_abs_diff(&self, other: &Heads) -> f32 {
        assert_eq!((self.heads, self.n, self.d), (other.heads, other.n, other.d), "shapes differ");
        support::max_abs_diff(&self.data, &other.data)
    }
}

/// `softmax(scores)` in place, with the largest score subtracted first so `exp` cannot overflow.
pub fn softmax_in_place(scores: &mut [f32]) {
    let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for s in scores.iter_mut() {
        *s = (*s - max).exp();
        sum += *s;
    }
    for s in scores.iter_mut() {
        *s /= sum;
    }
}

/// The dot product of two equally long vectors.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Runs a one-head kernel on each head (self-attention shapes: as many keys as queries).
pub fn per_head(
    q: &Heads,
    k: &Heads,
    v: &Heads,
    kernel: impl Fn(&[f32], &[f32], &[f32], (usize, usize, usize)) -> Vec<f32> + Sync,
) -> Heads {
    assert_eq!((q.heads, q.n, q.d), (k.heads, k.n, k.d), "queries and keys must have one shape");
    assert_eq!((v.heads, v.n), (k.heads, k.n), "values must match the keys");
    let data = (0..q.heads)
        .into_par_iter()
        .flat_map_iter(|h| kernel(q.head(h), k.head(h), v.head(h), (q.n, q.d, v.d)))
        .collect();
    Heads::new(q.heads, q.n, v.d, data)
}

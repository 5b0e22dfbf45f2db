//! Rotary position embedding (RoPE, Su et al. 2021): instead of adding a position vector to the
//! token, rotate each query and key by an angle proportional to its position.
//!
//! The `d` features of a head form `d / 2` pairs; pair `i` turns by `m * theta_i` at position `m`,
//! with chapter 4's frequencies `theta_i = base^(-2i/d)`. Which features form a pair is a choice
//! of layout, and both are in use ([`RopeLayout`]). The point of the rotation: the score of a query
//! at `m` and a key at `n` depends on `m - n` only.

use dfdx::prelude::*;

/// Which two features of a head turn together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RopeLayout {
    /// Pairs `(x[2i], x[2i+1])`: the RoFormer paper and Meta's reference Llama code (which treats
    /// each pair as one complex number).
    Interleaved,
    /// Pairs `(x[i], x[i + d/2])`: Hugging Face transformers' `rotate_half`
    /// (`LlamaForCausalLM`, Mistral, Qwen, ...).
    HalfSplit,
}

impl RopeLayout {
    /// The two features of pair `i` in a head of `d`.
    // ANCHOR: pair
    pub fn pair(self, i: usize, d: usize) -> (usize, usize) {
        match self {
            RopeLayout::Interleaved => (2 * i, 2 * i + 1),
            RopeLayout::HalfSplit => (i, i + d / 2),
        }
    }
    // ANCHOR_END: pair
}

/// The default base of the angles, as in the RoFormer paper and Llama 1 and 2.
pub const DEFAULT_ROPE_BASE: f64 = 10_000.0;

/// Rotary position embedding: a base and a layout.
///
/// PyTorch equivalent: Hugging Face's `LlamaRotaryEmbedding` (`rope_theta` is `base`) with
/// `apply_rotary_pos_emb` for [`RopeLayout::HalfSplit`]; Meta's `apply_rotary_emb` for
/// [`RopeLayout::Interleaved`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rope {
    pub base: f64,
    pub layout: RopeLayout,
}

impl Default for Rope {
    /// Base 10,000, Hugging Face's half-split layout.
    fn default() -> Self {
        Rope { base: DEFAULT_ROPE_BASE, layout: RopeLayout::HalfSplit }
    }
}

impl Rope {
    pub fn new(base: f64, layout: RopeLayout) -> Self {
        assert!(base > 1.0, "Rope::new: the base must be greater than 1 (got {base})");
        Rope { base, layout }
    }

    /// `theta_i = base^(-2i/d)` for `i = 0 .. d/2`: from one radian per position down to
    /// almost nothing.
    ///
    /// # Panics
    /// If `d` is odd: the features turn in pairs.
    // ANCHOR: frequencies
    pub fn frequencies(&self, d: usize) -> Vec<f64> {
        assert!(d.is_multiple_of(2), "RoPE turns features in pairs: d must be even (got {d})");
        (0..d / 2).map(|i| self.base.powf(-2.0 * i as f64 / d as f64)).collect()
    }
    // ANCHOR_END: frequencies

    /// One vector `x` of a head, rotated to position `pos`.
    // ANCHOR: rotate
    pub fn rotate(&self, x: &[f32], pos: usize) -> Vec<f32> {
        let d = x.len();
        let mut out = x.to_vec();
        for (i, theta) in self.frequencies(d).into_iter().enumerate() {
            let (a, b) = self.layout.pair(i, d);
            let (sin, cos) = (pos as f64 * theta).sin_cos();
            let (xa, xb) = (x[a] as f64, x[b] as f64);
            out[a] = (xa * cos - xb * sin) as f32;
            out[b] = (xb * cos + xa * sin) as f32;
        }
        out
    }
    // ANCHOR_END: rotate

    /// The same rotation written with complex numbers, as Meta's reference code does: pair `i`
    /// is `z = x[a] + i x[b]`, multiplied by `e^(i pos theta_i)`.
    pub fn rotate_complex(&self, x: &[f32], pos: usize) -> Vec<f32> {
        let d = x.len();
        let mut out = x.to_vec();
        for (i, theta) in self.frequencies(d).into_iter().enumerate() {
            let (a, b) = self.layout.pair(i, d);
            let z = Complex { re: x[a] as f64, im: x[b] as f64 };
            let turned = z.mul(Complex::from_polar(pos as f64 * theta));
            (out[a], out[b]) = (turned.re as f32, turned.im as f32);
        }
        out
    }

    /// The tables `cos` and `sin` for positions `start .. start + len`, `len x d` values each,
    /// laid out so that feature `j` of a head at position `m` turns by `cos[m][j]`, `sin[m][j]`.
    pub fn tables(&self, start: usize, len: usize, d: usize) -> (Vec<f32>, Vec<f32>) {
        let freqs = self.frequencies(d);
        let (mut cos, mut sin) = (vec![0.0f32; len * d], vec![0.0f32; len * d]);
        for m in 0..len {
            for (i, theta) in freqs.iter().enumerate() {
                let (s, c) = ((start + m) as f64 * theta).sin_cos();
                let (a, b) = self.layout.pair(i, d);
                for j in [a, b] {
                    (cos[m * d + j], sin[m * d + j]) = (c as f32, s as f32);
                }
            }
        }
        (cos, sin)
    }

    /// The `d x d` matrix `J` with `x J` = every pair turned by 90 degrees:
    /// `(x[a], x[b]) -> (-x[b], x[a])`. For [`RopeLayout::HalfSplit`], `x J` is Hugging Face's
    /// `rotate_half(x)`.
    pub fn quarter_turn(&self, d: usize) -> Vec<f32> {
        let mut j = vec![0.0f32; d * d];
        for i in 0..d / 2 {
            let (a, b) = self.layout.pair(i, d);
            j[b * d + a] = -1.0; // column a of x J is -x[b]
            j[a * d + b] = 1.0; // column b of x J is x[a]
        }
        j
    }

    /// Rotates every query or key of `x` (`(batch, heads, seq, d)`), the first at position
    /// `start`: `x * cos + (x J) * sin`, as `apply_rotary_pos_emb` does.
    // ANCHOR: apply
    pub fn apply<B: Dim, H: Dim, const D: usize, Dev: Device<f32>, T: Tape<f32, Dev>>(
        &self,
        x: Tensor<(B, H, usize, Const<D>), f32, Dev, T>,
        start: usize,
    ) -> Tensor<(B, H, usize, Const<D>), f32, Dev, T> {
        let shape = *x.shape();
        let (b, h, len, _) = shape;
        let dev = x.device().clone();
        let (cos, sin) = self.tables(start, len, D);
        let cos = dev.tensor_from_vec(cos, (len, Const::<D>));
        let sin = dev.tensor_from_vec(sin, (len, Const::<D>));
        let j = dev.tensor_from_vec(self.quarter_turn(D), (Const::<D>, Const::<D>));
        // x J on every vector at once: (b * h * len, d) x (d, d)
        let turned = x.retaped::<T>().reshape_like(&(b.size() * h.size() * len, Const::<D>));
        let turned = turned.matmul(j).reshape_like(&shape);
        x * cos.broadcast_like::<_, Axes2<0, 1>>(&shape)
            + turned * sin.broadcast_like::<_, Axes2<0, 1>>(&shape)
    }
    // ANCHOR_END: apply
}

/// Just enough of a complex number for [`Rope::rotate_complex`].
#[derive(Clone, Copy, Debug)]
struct Complex {
    re: f64,
    im: f64,
}

impl Complex {
    fn from_polar(angle: f64) -> Self {
        Complex { re: angle.cos(), im: angle.sin() }
    }

    fn mul(self, o: Complex) -> Complex {
        Complex { re: self.re * o.re - self.im * o.im, im: self.re * o.im + self.im * o.re }
    }
}

/// The dot product of two vectors, in `f64`.
pub fn dot(a: &[f32], b: &[f32]) -> f64 {
    a.iter().zip(b).map(|(x, y)| *x as f64 * *y as f64).sum()
}

/// The layout travels with a model's other settings (dfdx stores scalars as numbers):
/// half-split is 0, interleaved 1.
impl num_traits::ToPrimitive for RopeLayout {
    fn to_i64(&self) -> Option<i64> {
        Some(match self {
            RopeLayout::HalfSplit => 0,
            RopeLayout::Interleaved => 1,
        })
    }

    fn to_u64(&self) -> Option<u64> {
        self.to_i64().map(|n| n as u64)
    }
}

impl num_traits::NumCast for RopeLayout {
    fn from<N: num_traits::ToPrimitive>(n: N) -> Option<Self> {
        match n.to_f64()? {
            0.0 => Some(RopeLayout::HalfSplit),
            1.0 => Some(RopeLayout::Interleaved),
            _ => None,
        }
    }
}

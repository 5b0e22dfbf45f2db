//! Linear attention (Katharopoulos et al. 2020): replace the softmax's `exp(q·k / √d)` by a
//! product of features, `φ(q)·φ(k)` with `φ(x) = elu(x) + 1` (positive, so the weights stay
//! positive). Then `Σ_j φ(q_i)·φ(k_j) v_j = φ(q_i)ᵀ (Σ_j φ(k_j) v_jᵀ)`: the `d x dv` sum is built
//! once, in O(n·d·dv), and no `n x n` matrix ever exists. With these features it is a different
//! function from softmax attention, not an approximation of it (random-feature maps such as
//! Performer's, Choromanski et al. 2021, are built to approximate it).

use crate::heads::{dot, per_head, Heads};

// ANCHOR: feature_map
/// `elu(x) + 1`: `x + 1` for positive `x`, `exp(x)` otherwise; always positive.
pub fn phi(x: f32) -> f32 {
    if x > 0.0 {
        x + 1.0
    } else {
        x.exp()
    }
}
// ANCHOR_END: feature_map

fn features(x: &[f32]) -> Vec<f32> {
    x.iter().map(|&x| phi(x)).collect()
}

// ANCHOR: linear_head
/// Linear attention of one head: `out_i = φ(q_i)ᵀ S / φ(q_i)·z` with `S = Σ_j φ(k_j) v_jᵀ`
/// (`d x dv`) and `z = Σ_j φ(k_j)`. When `causal`, the sums run over `j <= i` only: they are
/// prefix sums, updated once per token, as a recurrent network updates its state.
pub fn linear_head(
    q: &[f32],
    k: &[f32],
    v: &[f32],
    (n, d, dv): (usize, usize, usize),
    causal: bool,
) -> Vec<f32> {
    let (fq, fk) = (features(q), features(k));
    let mut s = vec![0.0f32; d * dv]; // Σ φ(k_j) v_jᵀ
    let mut z = vec![0.0f32; d]; // Σ φ(k_j)
    let add_key = |j: usize, s: &mut [f32], z: &mut [f32]| {
        let (kj, vj) = (&fk[j * d..(j + 1) * d], &v[j * dv..(j + 1) * dv]);
        for (a, &ka) in kj.iter().enumerate() {
            z[a] += ka;
            for (sab, &vb) in s[a * dv..(a + 1) * dv].iter_mut().zip(vj) {
                *sab += ka * vb;
            }
        }
    };
    if !causal {
        (0..n).for_each(|j| add_key(j, &mut s, &mut z));
    }
    let mut out = vec![0.0f32; n * dv];
    for i in 0..n {
        if causal {
            add_key(i, &mut s, &mut z); // the state now holds keys 0..=i
        }
        let qi = &fq[i * d..(i + 1) * d];
        let norm = dot(qi, &z);
        let oi = &mut out[i * dv..(i + 1) * dv];
        for (a, &qa) in qi.iter().enumerate() {
            for (o, &sab) in oi.iter_mut().zip(&s[a * dv..(a + 1) * dv]) {
                *o += qa * sab;
            }
        }
        oi.iter_mut().for_each(|o| *o /= norm);
    }
    out
}
// ANCHOR_END: linear_head

// ANCHOR: linear_quadratic
/// The same function computed the quadratic way: the `n x n` weights
/// `A_ij = φ(q_i)·φ(k_j) / Σ_j' φ(q_i)·φ(k_j')` (over `j <= i` when `causal`), then `A V`.
/// Returns the output and the weights.
pub fn linear_quadratic_head(
    q: &[f32],
    k: &[f32],
    v: &[f32],
    (n, d, dv): (usize, usize, usize),
    causal: bool,
) -> (Vec<f32>, Vec<f32>) {
    let (fq, fk) = (features(q), features(k));
    let mut weights = vec![0.0f32; n * n];
    for i in 0..n {
        let keys = if causal { i + 1 } else { n };
        let row = &mut weights[i * n..i * n + keys];
        for (j, a) in row.iter_mut().enumerate() {
            *a = dot(&fq[i * d..(i + 1) * d], &fk[j * d..(j + 1) * d]);
        }
        let sum: f32 = row.iter().sum();
        row.iter_mut().for_each(|a| *a /= sum);
    }
    let mut out = vec![0.0f32; n * dv];
    for i in 0..n {
        for j in 0..n {
            let a = weights[i * n + j];
            for (o, &x) in out[i * dv..(i + 1) * dv].iter_mut().zip(&v[j * dv..(j + 1) * dv]) {
                *o += a * x;
            }
        }
    }
    (out, weights)
}
// ANCHOR_END: linear_quadratic

/// [`linear_head`] on every head, the heads in parallel.
pub fn linear(q: &Heads, k: &Heads, v: &Heads, causal: bool) -> Heads {
    per_head(q, k, v, |q, k, v, dims| linear_head(q, k, v, dims, causal))
}

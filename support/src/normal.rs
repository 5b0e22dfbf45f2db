//! Standard-normal numbers by the Box–Muller transform, from any seeded generator: in `f64` for
//! the reproducible inputs of [`normal_vec`], in `f32` where a chapter's committed run drew its
//! initial weights so. One transform, two precisions: the numbers of each stay as they were.

use rand::{Rng, SeedableRng};

/// A float the Box–Muller transform can draw in: `f32` or `f64`, each computed in its own
/// precision.
pub trait BoxMuller: Copy {
    /// See [`box_muller`].
    fn polar<R: Rng + ?Sized>(rng: &mut R) -> (Self, Self);
}

macro_rules! box_muller_in {
    ($float:ident) => {
        impl BoxMuller for $float {
            fn polar<R: Rng + ?Sized>(rng: &mut R) -> (Self, Self) {
                let u1: $float = 1.0 - rng.gen::<$float>(); // (0, 1]: ln(u1) is finite
                let u2: $float = rng.gen::<$float>();
                ((-2.0 * u1.ln()).sqrt(), std::$float::consts::TAU * u2)
            }
        }
    };
}

box_muller_in!(f32);
box_muller_in!(f64);

/// The Box–Muller transform: from two uniform draws of `rng` (`u1` first, then `u2`), the radius
/// `r = √(-2 ln u1)` and the angle `θ = 2π u2`, so that `r cos θ` and `r sin θ` are two
/// independent standard-normal samples. `F` is the precision of every step.
///
/// ```
/// use rand::SeedableRng;
/// let mut rng = rand::rngs::StdRng::seed_from_u64(7);
/// let (r, theta) = support::box_muller::<f64, _>(&mut rng);
/// assert_eq!([(r * theta.cos()) as f32, (r * theta.sin()) as f32], support::normal_vec(7, 2)[..]);
/// ```
pub fn box_muller<F: BoxMuller, R: Rng + ?Sized>(rng: &mut R) -> (F, F) {
    F::polar(rng)
}

/// `n` standard-normal samples from a seeded `StdRng` (Box–Muller in `f64`, both samples of each
/// pair, rounded to `f32`), the same on every device and platform: use it to build reproducible
/// inputs with `dev.tensor_from_vec`.
pub fn normal_vec(seed: u64, n: usize) -> Vec<f32> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n + 1);
    while out.len() < n {
        let (r, theta) = box_muller::<f64, _>(&mut rng);
        out.push((r * theta.cos()) as f32);
        out.push((r * theta.sin()) as f32);
    }
    out.truncate(n);
    out
}

/// A tensor of `shape` filled with [`normal_vec`]`(seed, ..)`: the same numbers on every device.
///
/// ```
/// use dfdx::prelude::*;
/// let dev = support::Dev::default();
/// let x = support::normal_tensor(&dev, 7, (2, 3, Const::<4>));
/// assert_eq!(x.shape().concrete(), [2, 3, 4]);
/// assert_eq!(x.as_vec(), support::normal_vec(7, 24));
/// ```
pub fn normal_tensor<S: dfdx::shapes::Shape, D: dfdx::tensor::TensorFromVec<f32>>(
    dev: &D,
    seed: u64,
    shape: S,
) -> dfdx::tensor::Tensor<S, f32, D> {
    dev.tensor_from_vec(normal_vec(seed, shape.num_elements()), shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_vec_is_seeded_and_standard() {
        let a = normal_vec(7, 20_000);
        assert_eq!(a, normal_vec(7, 20_000));
        assert_ne!(a[..4], normal_vec(8, 4)[..]);
        let mean = a.iter().map(|&x| x as f64).sum::<f64>() / a.len() as f64;
        let var = a.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / a.len() as f64;
        assert!(mean.abs() < 0.03, "mean {mean}");
        assert!((var - 1.0).abs() < 0.05, "variance {var}");
    }

    /// The formulas the two Box–Mullers of the book were written with before they became one:
    /// the same bits, in both precisions.
    #[test]
    fn both_precisions_draw_what_they_drew_before() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut before = Vec::new();
        for _ in 0..5_000 {
            let u1: f64 = 1.0 - rng.gen::<f64>();
            let u2: f64 = rng.gen::<f64>();
            let r = (-2.0 * u1.ln()).sqrt();
            let t = 2.0 * std::f64::consts::PI * u2;
            before.push((r * t.cos()) as f32);
            before.push((r * t.sin()) as f32);
        }
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&normal_vec(3, 10_000)), bits(&before));

        // chapter 7's embeddings: f32 throughout, the cosine only, scaled by the std
        let std = 0.02f32;
        let (mut a, mut b) =
            (rand::rngs::StdRng::seed_from_u64(9), rand::rngs::StdRng::seed_from_u64(9));
        for _ in 0..10_000 {
            let u1 = 1.0 - a.gen::<f32>();
            let u2 = a.gen::<f32>();
            let before = std * (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos();
            let (r, theta) = box_muller::<f32, _>(&mut b);
            assert_eq!((std * r * theta.cos()).to_bits(), before.to_bits());
        }
    }
}

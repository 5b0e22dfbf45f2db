//! The two row operations of the fast kernel, written so the compiler vectorises them: the row
//! maximum, and `p = exp(s - m)` with the row sum. `exp` is a polynomial (Cephes' `expf`:
//! Cody-Waite range reduction and a degree-5 polynomial), branch-free; both the scalar and the
//! AVX2 version are within 3e-7 of `f64`'s `exp`, tested over the whole `f32` range below.
//! On a CPU with AVX2 and FMA (checked at run time) eight of them run at once, written with the
//! `std::arch` intrinsics, which are `unsafe`; elsewhere the portable loops below run.
#![allow(unsafe_code)]

const LANES: usize = 8;

/// `e^x` for `x` in `[-87, 88]`; 0 below -87 (where `e^x` < 1.7e-38) and `e^88` above 88. The
/// kernel only ever passes `s - m <= 0`.
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    const ROUND: f32 = 12_582_912.0; // 1.5 · 2^23: adding it rounds to an integer
    let xc = x.clamp(-87.0, 88.0);
    let n = (xc * LOG2E + ROUND) - ROUND; // nearest integer to x / ln 2
    let r = xc - n * LN2_HI - n * LN2_LO; // x - n ln 2, in [-ln2/2, ln2/2]
    let mut p = 1.987_569_1e-4;
    p = p * r + 1.398_199_9e-3;
    p = p * r + 8.333_452e-3;
    p = p * r + 4.166_579_6e-2;
    p = p * r + 1.666_666_5e-1;
    p = p * r + 0.5;
    let e = p * r * r + r + 1.0;
    let two_n = f32::from_bits(((n as i32 + 127) as u32) << 23);
    if x < -87.0 {
        0.0
    } else {
        e * two_n
    }
}

#[inline(always)]
fn max_body(row: &[f32]) -> f32 {
    let mut lanes = [f32::NEG_INFINITY; LANES];
    let mut chunks = row.chunks_exact(LANES);
    for c in &mut chunks {
        for i in 0..LANES {
            lanes[i] = lanes[i].max(c[i]);
        }
    }
    chunks.remainder().iter().chain(&lanes).copied().fold(f32::NEG_INFINITY, f32::max)
}

#[inline(always)]
fn exp_sum_body(row: &mut [f32], m: f32) -> f32 {
    let mut lanes = [0.0f32; LANES];
    let mut chunks = row.chunks_exact_mut(LANES);
    for c in &mut chunks {
        for i in 0..LANES {
            let e = exp(c[i] - m);
            c[i] = e;
            lanes[i] += e;
        }
    }
    let mut sum: f32 = lanes.iter().sum();
    for x in chunks.into_remainder() {
        *x = exp(*x - m);
        sum += *x;
    }
    sum
}

/// The same two operations in AVX2 and FMA instructions, eight floats at a time.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    const C: [f32; 6] =
        [1.987_569_1e-4, 1.398_199_9e-3, 8.333_452e-3, 4.166_579_6e-2, 1.666_666_5e-1, 0.5];

    /// [`super::exp`] of eight floats.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn exp8(x: __m256) -> __m256 {
        let xc = _mm256_max_ps(_mm256_min_ps(x, _mm256_set1_ps(88.0)), _mm256_set1_ps(-87.0));
        let n = _mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(
            _mm256_mul_ps(xc, _mm256_set1_ps(std::f32::consts::LOG2_E)),
        );
        let r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693_359_4), xc);
        let r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.121_944_4e-4), r);
        let mut p = _mm256_set1_ps(C[0]);
        for c in &C[1..] {
            p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(*c));
        }
        let e = _mm256_add_ps(_mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r), _mm256_set1_ps(1.0));
        let exponent = _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127));
        let two_n = _mm256_castsi256_ps(_mm256_slli_epi32::<23>(exponent));
        let keep = _mm256_cmp_ps::<_CMP_GE_OQ>(x, _mm256_set1_ps(-87.0));
        _mm256_and_ps(_mm256_mul_ps(e, two_n), keep)
    }

    /// # Safety
    /// The CPU must have AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn exp_and_sum(row: &mut [f32], m: f32) -> f32 {
        let mv = _mm256_set1_ps(m);
        let mut acc = _mm256_setzero_ps();
        let mut chunks = row.chunks_exact_mut(8);
        for c in &mut chunks {
            // SAFETY: `c` holds exactly eight floats
            let e = exp8(_mm256_sub_ps(_mm256_loadu_ps(c.as_ptr()), mv));
            _mm256_storeu_ps(c.as_mut_ptr(), e);
            acc = _mm256_add_ps(acc, e);
        }
        let mut lanes = [0.0f32; 8];
        _mm256_storeu_ps(lanes.as_mut_ptr(), acc);
        let mut sum: f32 = lanes.iter().sum();
        for x in chunks.into_remainder() {
            *x = super::exp(*x - m);
            sum += *x;
        }
        sum
    }

    /// [`exp8`] on an array, for the tests.
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA.
    #[cfg(test)]
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn exp8_array(x: [f32; 8]) -> [f32; 8] {
        let mut out = [0.0f32; 8];
        // SAFETY: both arrays hold exactly eight floats
        _mm256_storeu_ps(out.as_mut_ptr(), exp8(_mm256_loadu_ps(x.as_ptr())));
        out
    }

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn row_max(row: &[f32]) -> f32 {
        let mut acc = _mm256_set1_ps(f32::NEG_INFINITY);
        let mut chunks = row.chunks_exact(8);
        for c in &mut chunks {
            // SAFETY: `c` holds exactly eight floats
            acc = _mm256_max_ps(acc, _mm256_loadu_ps(c.as_ptr()));
        }
        let mut lanes = [0.0f32; 8];
        _mm256_storeu_ps(lanes.as_mut_ptr(), acc);
        chunks.remainder().iter().chain(&lanes).copied().fold(f32::NEG_INFINITY, f32::max)
    }
}

#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
}

/// The largest value of `row` (`-inf` for an empty row).
pub fn row_max(row: &[f32]) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 and FMA, checked just now
        return unsafe { avx2::row_max(row) };
    }
    max_body(row)
}

/// Replaces each `s` of `row` by `exp(s - m)` and returns their sum.
pub fn exp_and_sum(row: &mut [f32], m: f32) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 and FMA, checked just now
        return unsafe { avx2::exp_and_sum(row, m) };
    }
    exp_sum_body(row, m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inputs across the whole `f32` range: every 997th bit pattern (every binade, both signs,
    /// the infinities), a grid of step 0.001 over `[-87, 88]`, and the edges of the clamp.
    fn sweep() -> Vec<f32> {
        let mut xs: Vec<f32> = (0..=u32::MAX).step_by(997).map(f32::from_bits).collect();
        xs.extend((-87_000..=88_000).map(|i| i as f32 / 1000.0));
        let edges = [-87.0f32, 88.0, -1e9, f32::MIN, f32::MAX, f32::INFINITY, f32::NEG_INFINITY];
        xs.extend(edges.iter().flat_map(|&x| [x, x.next_down(), x.next_up()]));
        xs.extend([0.0, -0.0, f32::MIN_POSITIVE, -f32::MIN_POSITIVE]);
        xs.retain(|x| !x.is_nan());
        xs
    }

    /// `exp_of` gives `e^x` within 3e-7 of `f64`'s `exp` on `[-87, 88]`, 0 below and `e^88`
    /// above; returns the worst relative error.
    fn check_exp(name: &str, exp_of: impl Fn(&[f32]) -> Vec<f32>) -> f64 {
        let xs = sweep();
        let got = exp_of(&xs);
        let top = exp_of(&[88.0])[0];
        let mut worst = 0.0f64;
        for (&x, &e) in xs.iter().zip(&got) {
            if x < -87.0 {
                assert_eq!(e, 0.0, "{name}: exp({x:e}) should be 0");
            } else if x > 88.0 {
                assert_eq!(e, top, "{name}: exp({x:e}) should saturate at exp(88)");
            } else {
                let want = f64::from(x).exp();
                worst = worst.max((f64::from(e) - want).abs() / want);
            }
        }
        assert!(worst < 3e-7, "{name}: relative error {worst:e}");
        assert_eq!(exp_of(&[0.0])[0], 1.0);
        worst
    }

    #[test]
    fn exp_is_within_3e_7_of_f64_exp() {
        check_exp("scalar exp", |xs| xs.iter().map(|&x| exp(x)).collect());
    }

    /// The AVX2 path is what runs on this project's machines, so it gets the same test. A CPU
    /// without AVX2 and FMA fails it by name rather than passing it untested.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_exp8_is_within_3e_7_of_f64_exp() {
        let missing = "the AVX2 path cannot be tested on this CPU, which lacks";
        assert!(std::arch::is_x86_feature_detected!("avx2"), "{missing} AVX2");
        assert!(std::arch::is_x86_feature_detected!("fma"), "{missing} FMA");
        check_exp("AVX2 exp8", |xs| {
            xs.chunks(8)
                .flat_map(|c| {
                    let mut lanes = [0.0f32; 8];
                    lanes[..c.len()].copy_from_slice(c);
                    // SAFETY: the CPU has AVX2 and FMA, asserted above
                    let e = unsafe { avx2::exp8_array(lanes) };
                    e[..c.len()].to_vec()
                })
                .collect()
        });
    }

    #[test]
    fn row_operations_agree_with_plain_loops() {
        let row: Vec<f32> = (0..37).map(|i| ((i * 7) % 11) as f32 - 5.0).collect();
        assert_eq!(row_max(&row), 5.0);
        let mut p = row.clone();
        let sum = exp_and_sum(&mut p, 5.0);
        let want: Vec<f32> = row.iter().map(|s| (s - 5.0).exp()).collect();
        support::assert_close(&p, &want, 1e-6);
        assert!((sum - want.iter().sum::<f32>()).abs() < 1e-5);
    }
}

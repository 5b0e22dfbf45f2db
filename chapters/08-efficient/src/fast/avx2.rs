//! [`Lanes`] in AVX2 and FMA instructions: eight floats per register, sixteen registers.
#![allow(unsafe_code)]

use std::arch::x86_64::*;

use super::lanes::{Lanes, LN2_HI, LN2_LO, POLY};

/// AVX2 with FMA (Intel since 2013, AMD since 2015). Use only where [`super::Isa::Avx2`] is
/// supported.
#[derive(Clone, Copy, Debug)]
pub struct Avx2;

impl Lanes for Avx2 {
    const W: usize = 8;
    type V = __m256;

    #[inline(always)]
    unsafe fn splat(x: f32) -> __m256 {
        _mm256_set1_ps(x)
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> __m256 {
        _mm256_loadu_ps(p)
    }
    #[inline(always)]
    unsafe fn store(p: *mut f32, v: __m256) {
        _mm256_storeu_ps(p, v)
    }
    #[inline(always)]
    unsafe fn fma(a: __m256, b: __m256, c: __m256) -> __m256 {
        _mm256_fmadd_ps(a, b, c)
    }
    #[inline(always)]
    unsafe fn mul(a: __m256, b: __m256) -> __m256 {
        _mm256_mul_ps(a, b)
    }
    #[inline(always)]
    unsafe fn add(a: __m256, b: __m256) -> __m256 {
        _mm256_add_ps(a, b)
    }
    #[inline(always)]
    unsafe fn sub(a: __m256, b: __m256) -> __m256 {
        _mm256_sub_ps(a, b)
    }
    #[inline(always)]
    unsafe fn max(a: __m256, b: __m256) -> __m256 {
        _mm256_max_ps(a, b)
    }
    /// [`super::lanes::exp`], eight at a time.
    #[inline(always)]
    unsafe fn exp(x: __m256) -> __m256 {
        let xc = _mm256_max_ps(_mm256_min_ps(x, _mm256_set1_ps(88.0)), _mm256_set1_ps(-87.0));
        let n = _mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(
            _mm256_mul_ps(xc, _mm256_set1_ps(std::f32::consts::LOG2_E)),
        );
        let r = _mm256_fnmadd_ps(n, _mm256_set1_ps(LN2_HI), xc);
        let r = _mm256_fnmadd_ps(n, _mm256_set1_ps(LN2_LO), r);
        let mut p = _mm256_set1_ps(POLY[0]);
        for c in &POLY[1..] {
            p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(*c));
        }
        let e = _mm256_add_ps(_mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r), _mm256_set1_ps(1.0));
        let exponent = _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127));
        let two_n = _mm256_castsi256_ps(_mm256_slli_epi32::<23>(exponent));
        let keep = _mm256_cmp_ps::<_CMP_GE_OQ>(x, _mm256_set1_ps(-87.0));
        _mm256_and_ps(_mm256_mul_ps(e, two_n), keep)
    }
    #[inline(always)]
    unsafe fn reduce_max(v: __m256) -> f32 {
        let m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps::<1>(v));
        let m = _mm_max_ps(m, _mm_movehl_ps(m, m));
        _mm_cvtss_f32(_mm_max_ss(m, _mm_shuffle_ps::<1>(m, m)))
    }
    #[inline(always)]
    unsafe fn nibbles(p: *const u8) -> (__m256, __m256) {
        let bytes = _mm256_cvtepu8_epi32(_mm_loadl_epi64(p.cast()));
        let low = _mm256_and_si256(bytes, _mm256_set1_epi32(0x0F));
        (_mm256_cvtepi32_ps(low), _mm256_cvtepi32_ps(_mm256_srli_epi32::<4>(bytes)))
    }
    #[inline(always)]
    unsafe fn signed_bytes(p: *const u8) -> __m256 {
        _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64(p.cast())))
    }
    #[inline(always)]
    unsafe fn reduce_sum(v: __m256) -> f32 {
        let s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps::<1>(v));
        let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        _mm_cvtss_f32(_mm_add_ss(s, _mm_shuffle_ps::<1>(s, s)))
    }
}

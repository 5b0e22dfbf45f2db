//! [`Lanes`] in AVX-512 instructions: sixteen floats per register, thirty-two registers.
#![allow(unsafe_code)]

use std::arch::x86_64::*;

use super::lanes::{Lanes, LN2_HI, LN2_LO, POLY};

/// AVX-512 Foundation (Intel server CPUs since 2017, AMD since Zen 4). Use only where
/// [`super::Isa::Avx512`] is supported.
#[derive(Clone, Copy, Debug)]
pub struct Avx512;

impl Lanes for Avx512 {
    const W: usize = 16;
    type V = __m512;

    #[inline(always)]
    unsafe fn splat(x: f32) -> __m512 {
        _mm512_set1_ps(x)
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> __m512 {
        _mm512_loadu_ps(p)
    }
    #[inline(always)]
    unsafe fn store(p: *mut f32, v: __m512) {
        _mm512_storeu_ps(p, v)
    }
    #[inline(always)]
    unsafe fn fma(a: __m512, b: __m512, c: __m512) -> __m512 {
        _mm512_fmadd_ps(a, b, c)
    }
    #[inline(always)]
    unsafe fn mul(a: __m512, b: __m512) -> __m512 {
        _mm512_mul_ps(a, b)
    }
    #[inline(always)]
    unsafe fn add(a: __m512, b: __m512) -> __m512 {
        _mm512_add_ps(a, b)
    }
    #[inline(always)]
    unsafe fn sub(a: __m512, b: __m512) -> __m512 {
        _mm512_sub_ps(a, b)
    }
    #[inline(always)]
    unsafe fn max(a: __m512, b: __m512) -> __m512 {
        _mm512_max_ps(a, b)
    }
    /// [`super::lanes::exp`], sixteen at a time.
    #[inline(always)]
    unsafe fn exp(x: __m512) -> __m512 {
        let xc = _mm512_max_ps(_mm512_min_ps(x, _mm512_set1_ps(88.0)), _mm512_set1_ps(-87.0));
        let n = _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(
            _mm512_mul_ps(xc, _mm512_set1_ps(std::f32::consts::LOG2_E)),
        );
        let r = _mm512_fnmadd_ps(n, _mm512_set1_ps(LN2_HI), xc);
        let r = _mm512_fnmadd_ps(n, _mm512_set1_ps(LN2_LO), r);
        let mut p = _mm512_set1_ps(POLY[0]);
        for c in &POLY[1..] {
            p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(*c));
        }
        let e = _mm512_add_ps(_mm512_fmadd_ps(p, _mm512_mul_ps(r, r), r), _mm512_set1_ps(1.0));
        let exponent = _mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127));
        let two_n = _mm512_castsi512_ps(_mm512_slli_epi32::<23>(exponent));
        let keep = _mm512_cmp_ps_mask::<_CMP_GE_OQ>(x, _mm512_set1_ps(-87.0));
        _mm512_maskz_mov_ps(keep, _mm512_mul_ps(e, two_n))
    }
    #[inline(always)]
    unsafe fn reduce_max(v: __m512) -> f32 {
        _mm512_reduce_max_ps(v)
    }
    #[inline(always)]
    unsafe fn nibbles(p: *const u8) -> (__m512, __m512) {
        let bytes = _mm512_cvtepu8_epi32(_mm_loadu_si128(p.cast()));
        let low = _mm512_and_si512(bytes, _mm512_set1_epi32(0x0F));
        (_mm512_cvtepi32_ps(low), _mm512_cvtepi32_ps(_mm512_srli_epi32::<4>(bytes)))
    }
    #[inline(always)]
    unsafe fn signed_bytes(p: *const u8) -> __m512 {
        _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128(p.cast())))
    }
    #[inline(always)]
    unsafe fn reduce_sum(v: __m512) -> f32 {
        _mm512_reduce_add_ps(v)
    }
}

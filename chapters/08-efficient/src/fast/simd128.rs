//! [`Lanes`] in WebAssembly's SIMD128 instructions: four floats per 128-bit vector. The browser's
//! engine compiles them to the host's own vector instructions (SSE or AVX on x86-64, NEON on ARM).
//! WebAssembly has no fused multiply-add in its base SIMD set, so `fma` is a multiply and an add,
//! as on the portable path.
#![allow(unsafe_code)]

use std::arch::wasm32::*;

use super::lanes::{Lanes, LN2_HI, LN2_LO, POLY};

/// WebAssembly SIMD128 (Chrome 91, Firefox 89, Safari 16.4 and later). Use only in a module built
/// with the `simd128` target feature ([`super::Isa::Simd128`]).
#[derive(Clone, Copy, Debug)]
pub struct Simd128;

impl Lanes for Simd128 {
    const W: usize = 4;
    type V = v128;

    #[inline(always)]
    unsafe fn splat(x: f32) -> v128 {
        f32x4_splat(x)
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> v128 {
        // SAFETY: the caller guarantees four floats at `p`; WebAssembly loads need no alignment
        unsafe { v128_load(p.cast()) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut f32, v: v128) {
        // SAFETY: the caller guarantees room for four floats at `p`
        unsafe { v128_store(p.cast(), v) }
    }
    #[inline(always)]
    unsafe fn fma(a: v128, b: v128, c: v128) -> v128 {
        f32x4_add(f32x4_mul(a, b), c)
    }
    #[inline(always)]
    unsafe fn mul(a: v128, b: v128) -> v128 {
        f32x4_mul(a, b)
    }
    #[inline(always)]
    unsafe fn add(a: v128, b: v128) -> v128 {
        f32x4_add(a, b)
    }
    #[inline(always)]
    unsafe fn sub(a: v128, b: v128) -> v128 {
        f32x4_sub(a, b)
    }
    #[inline(always)]
    unsafe fn max(a: v128, b: v128) -> v128 {
        f32x4_max(a, b)
    }
    /// [`super::lanes::exp`], four at a time.
    #[inline(always)]
    unsafe fn exp(x: v128) -> v128 {
        let xc = f32x4_max(f32x4_min(x, f32x4_splat(88.0)), f32x4_splat(-87.0));
        let n = f32x4_nearest(f32x4_mul(xc, f32x4_splat(std::f32::consts::LOG2_E)));
        let r = f32x4_sub(xc, f32x4_mul(n, f32x4_splat(LN2_HI)));
        let r = f32x4_sub(r, f32x4_mul(n, f32x4_splat(LN2_LO)));
        let mut p = f32x4_splat(POLY[0]);
        for c in &POLY[1..] {
            p = f32x4_add(f32x4_mul(p, r), f32x4_splat(*c));
        }
        // `p·r·r + r + 1` in the portable path's order, so the two give the same bits
        let e = f32x4_add(f32x4_add(f32x4_mul(f32x4_mul(p, r), r), r), f32x4_splat(1.0));
        let exponent = i32x4_add(i32x4_trunc_sat_f32x4(n), i32x4_splat(127));
        let two_n = i32x4_shl(exponent, 23);
        let keep = f32x4_ge(x, f32x4_splat(-87.0));
        v128_and(f32x4_mul(e, two_n), keep)
    }
    #[inline(always)]
    unsafe fn reduce_max(v: v128) -> f32 {
        let m = f32x4_max(v, i32x4_shuffle::<2, 3, 0, 1>(v, v));
        let m = f32x4_max(m, i32x4_shuffle::<1, 0, 3, 2>(m, m));
        f32x4_extract_lane::<0>(m)
    }
    #[inline(always)]
    unsafe fn reduce_sum(v: v128) -> f32 {
        let s = f32x4_add(v, i32x4_shuffle::<2, 3, 0, 1>(v, v));
        let s = f32x4_add(s, i32x4_shuffle::<1, 0, 3, 2>(s, s));
        f32x4_extract_lane::<0>(s)
    }
    #[inline(always)]
    unsafe fn nibbles(p: *const u8) -> (v128, v128) {
        // SAFETY: the caller guarantees four bytes at `p`
        let bytes =
            u32x4_extend_low_u16x8(u16x8_extend_low_u8x16(unsafe { v128_load32_zero(p.cast()) }));
        let low = v128_and(bytes, u32x4_splat(0x0F));
        (f32x4_convert_i32x4(low), f32x4_convert_i32x4(u32x4_shr(bytes, 4)))
    }
    #[inline(always)]
    unsafe fn signed_bytes(p: *const u8) -> v128 {
        // SAFETY: the caller guarantees four bytes at `p`
        let bytes = unsafe { v128_load32_zero(p.cast()) };
        f32x4_convert_i32x4(i32x4_extend_low_i16x8(i16x8_extend_low_i8x16(bytes)))
    }
}

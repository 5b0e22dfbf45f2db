//! What the kernel asks of a vector instruction set: a handful of operations on `W` floats at a
//! time ([`Lanes`]), and the portable implementation every CPU can run. [`super::avx2`] and
//! [`super::avx512`] implement the same trait with `std::arch` intrinsics; [`super::kernel`] is
//! written once against the trait, and each instruction set gets its own compiled copy.
//!
//! Also here: `exp` as a polynomial (Cephes' `expf`: Cody-Waite range reduction and a degree-5
//! polynomial), branch-free, the same formula in every implementation.
#![allow(unsafe_code)]

/// Eight, or sixteen, floats in a register, and what the kernel does with them. Every method is
/// `#[inline(always)]`, so that it compiles inside the one function per instruction set that
/// enables the set's target features.
///
/// # Safety
/// Every method is `unsafe`, with one contract, stated here once: the caller guarantees that the
/// CPU has the instruction set (checked once, at run time, by [`super::Isa`]) and, for `load`
/// and `store`, that `W` floats lie behind the pointer.
#[allow(clippy::missing_safety_doc)] // the contract above covers every method
pub trait Lanes {
    /// Floats per vector.
    const W: usize;
    /// A vector of `W` floats.
    type V: Copy;

    unsafe fn splat(x: f32) -> Self::V;
    unsafe fn load(p: *const f32) -> Self::V;
    unsafe fn store(p: *mut f32, v: Self::V);
    /// `a · b + c`, fused where the CPU can.
    unsafe fn fma(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    unsafe fn mul(a: Self::V, b: Self::V) -> Self::V;
    unsafe fn add(a: Self::V, b: Self::V) -> Self::V;
    unsafe fn sub(a: Self::V, b: Self::V) -> Self::V;
    unsafe fn max(a: Self::V, b: Self::V) -> Self::V;
    /// [`exp`] of every lane.
    unsafe fn exp(x: Self::V) -> Self::V;
    /// The largest lane.
    unsafe fn reduce_max(v: Self::V) -> f32;
    /// The sum of the lanes.
    unsafe fn reduce_sum(v: Self::V) -> f32;
    /// `W` bytes behind `p` as two vectors of floats: their low four bits and their high four
    /// bits (the codes of ggml's 4-bit blocks, chapter 11).
    unsafe fn nibbles(p: *const u8) -> (Self::V, Self::V);
    /// `W` signed bytes behind `p` as floats (the codes of ggml's 8-bit blocks).
    unsafe fn signed_bytes(p: *const u8) -> Self::V;
}

/// Cephes' `expf` constants: the split of `ln 2`, and the polynomial for `e^r` on
/// `[-ln2/2, ln2/2]`, highest power first (`e^r ≈ 1 + r + r²·p(r)`).
pub(super) const LN2_HI: f32 = 0.693_359_4;
pub(super) const LN2_LO: f32 = -2.121_944_4e-4;
pub(super) const POLY: [f32; 6] =
    [1.987_569_1e-4, 1.398_199_9e-3, 8.333_452e-3, 4.166_579_6e-2, 1.666_666_5e-1, 0.5];

/// `e^x` for `x` in `[-87, 88]`; 0 below -87 (where `e^x` < 1.7e-38) and `e^88` above 88. The
/// kernel only ever passes `s - m <= 0`.
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    const ROUND: f32 = 12_582_912.0; // 1.5 · 2^23: adding it rounds to an integer
    let xc = x.clamp(-87.0, 88.0);
    let n = (xc * std::f32::consts::LOG2_E + ROUND) - ROUND; // nearest integer to x / ln 2
    let r = xc - n * LN2_HI - n * LN2_LO; // x - n ln 2, in [-ln2/2, ln2/2]
    let p = POLY[1..].iter().fold(POLY[0], |p, &c| p * r + c);
    let e = p * r * r + r + 1.0;
    let two_n = f32::from_bits(((n as i32 + 127) as u32) << 23);
    if x < -87.0 {
        0.0
    } else {
        e * two_n
    }
}

/// Plain Rust on arrays of eight floats, for any CPU; the compiler vectorises what it can.
#[derive(Clone, Copy, Debug)]
pub struct Portable;

type F8 = [f32; 8];

#[inline(always)]
fn zip(a: F8, b: F8, f: impl Fn(f32, f32) -> f32) -> F8 {
    std::array::from_fn(|i| f(a[i], b[i]))
}

impl Lanes for Portable {
    const W: usize = 8;
    type V = F8;

    #[inline(always)]
    unsafe fn splat(x: f32) -> F8 {
        [x; 8]
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> F8 {
        // SAFETY: the caller guarantees eight floats at `p`
        unsafe { p.cast::<F8>().read_unaligned() }
    }
    #[inline(always)]
    unsafe fn store(p: *mut f32, v: F8) {
        // SAFETY: the caller guarantees room for eight floats at `p`
        unsafe { p.cast::<F8>().write_unaligned(v) }
    }
    #[inline(always)]
    unsafe fn fma(a: F8, b: F8, c: F8) -> F8 {
        std::array::from_fn(|i| a[i] * b[i] + c[i])
    }
    #[inline(always)]
    unsafe fn mul(a: F8, b: F8) -> F8 {
        zip(a, b, |x, y| x * y)
    }
    #[inline(always)]
    unsafe fn add(a: F8, b: F8) -> F8 {
        zip(a, b, |x, y| x + y)
    }
    #[inline(always)]
    unsafe fn sub(a: F8, b: F8) -> F8 {
        zip(a, b, |x, y| x - y)
    }
    #[inline(always)]
    unsafe fn max(a: F8, b: F8) -> F8 {
        zip(a, b, f32::max)
    }
    #[inline(always)]
    unsafe fn exp(x: F8) -> F8 {
        x.map(exp)
    }
    #[inline(always)]
    unsafe fn reduce_max(v: F8) -> f32 {
        v.into_iter().fold(f32::NEG_INFINITY, f32::max)
    }
    #[inline(always)]
    unsafe fn nibbles(p: *const u8) -> (F8, F8) {
        let bytes: [u8; 8] = std::ptr::read_unaligned(p.cast());
        (bytes.map(|b| f32::from(b & 0x0F)), bytes.map(|b| f32::from(b >> 4)))
    }
    #[inline(always)]
    unsafe fn signed_bytes(p: *const u8) -> F8 {
        let bytes: [u8; 8] = std::ptr::read_unaligned(p.cast());
        bytes.map(|b| f32::from(b as i8))
    }
    #[inline(always)]
    unsafe fn reduce_sum(v: F8) -> f32 {
        v.into_iter().sum()
    }
}

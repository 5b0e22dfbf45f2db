//! The dot products a decode step is made of, written once against chapter 8's [`Lanes`] and
//! compiled for each instruction set by [`Isa::run`]: a row of `f32` weights, a row of Q4_1
//! blocks and a row of Q8_0 blocks, each against the activations of one token.
//!
//! For one token (a decode step) a quantized row is never expanded to `f32` in memory: each
//! block of 32 codes is turned into floats in registers ([`Lanes::nibbles`],
//! [`Lanes::signed_bytes`]) and multiplied at once, without forming the weights. For a Q4_1
//! block with scale `d` and minimum `m`, `Σ (d·qᵢ + m)·xᵢ = d · Σ qᵢ·xᵢ + m · Σ xᵢ`, so the
//! minimum costs one multiply per block once the sums of `x` over each block are known; the
//! result equals the product with the dequantized weights up to rounding, since the sums are
//! taken in another order. For several tokens (a prompt), [`expand_q4_1`] and [`expand_q8_0`]
//! expand each row once into a buffer of one row, to exactly the numbers the dequantizer gives,
//! and [`dot_f32`] multiplies it with every token.
//!
//! Each kernel asks for the bytes [`prefetch_ahead`] bytes ahead of the block it is on (1 KiB
//! unless `ATTENTION_PREFETCH` says otherwise; `0` turns the software prefetch off), so that the
//! speed example can measure the decode path with and without it.
#![allow(unsafe_code)]

use std::sync::LazyLock;

use ch08_efficient::fast::lanes::Lanes;
use half::f16;

/// Elements per quantized block.
pub const BLOCK: usize = 32;

/// Every half-precision number as `f32`, by its bits: one load per block's scale instead of a
/// conversion call (256 KiB, which stays in the L2 cache).
static HALF: LazyLock<Vec<f32>> =
    LazyLock::new(|| (0..=u16::MAX).map(|bits| f16::from_bits(bits).to_f32()).collect());

/// The environment variable that sets how many bytes ahead of the block in use the kernels ask
/// for the next bytes; `0` turns the software prefetch off.
pub const PREFETCH_VARIABLE: &str = "ATTENTION_PREFETCH";
/// The prefetch distance when `ATTENTION_PREFETCH` is not set, in bytes.
pub const PREFETCH_DEFAULT: usize = 1024;
/// The largest prefetch distance accepted, in bytes.
pub const PREFETCH_MAX: usize = 1 << 16;

/// The prefetch distance `value` names (`ATTENTION_PREFETCH`'s value), or why it is not one.
pub fn parse_prefetch(value: &str) -> Result<usize, String> {
    match value.trim().parse::<usize>() {
        Ok(bytes) if bytes <= PREFETCH_MAX => Ok(bytes),
        _ => Err(format!(
            "{PREFETCH_VARIABLE}={value:?} is not a number of bytes from 0 (no prefetch) to \
             {PREFETCH_MAX}; unset, it is {PREFETCH_DEFAULT}"
        )),
    }
}

static PREFETCH_AHEAD: LazyLock<Result<usize, String>> =
    LazyLock::new(|| match std::env::var_os(PREFETCH_VARIABLE) {
        None => Ok(PREFETCH_DEFAULT),
        Some(value) => parse_prefetch(&value.to_string_lossy()),
    });

/// How far ahead of the block in use the kernels ask for the next bytes: `ATTENTION_PREFETCH`
/// if set, else [`PREFETCH_DEFAULT`]; `0`: no software prefetch. Read once.
///
/// # Errors
/// If `ATTENTION_PREFETCH` is not a number of bytes up to [`PREFETCH_MAX`].
pub fn prefetch_ahead() -> Result<usize, String> {
    PREFETCH_AHEAD.clone()
}

/// [`prefetch_ahead`] for the kernels.
///
/// # Panics
/// If `ATTENTION_PREFETCH` is not valid (the examples check it first, with a one-line error).
#[inline(always)]
fn ahead() -> usize {
    match &*PREFETCH_AHEAD {
        Ok(bytes) => *bytes,
        Err(e) => panic!("{e}"),
    }
}

/// Asks for the cache line `ahead` bytes past `p` to be loaded, unless `ahead` is 0; harmless
/// if that is past the row's end.
#[inline(always)]
fn prefetch(p: *const u8, ahead: usize) {
    #[cfg(target_arch = "x86_64")]
    if ahead > 0 {
        // SAFETY: a prefetch is a hint and never faults, whatever the address
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                p.wrapping_add(ahead).cast(),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (p, ahead);
}

#[inline(always)]
fn f16_at(bytes: &[u8], at: usize) -> f32 {
    HALF[usize::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]))]
}

/// `Σ w[i]·x[i]`, four vectors at a time.
///
/// # Safety
/// The CPU must have `L`'s instruction set; `w` and `x` have the same length.
#[inline(always)]
pub unsafe fn dot_f32<L: Lanes>(w: &[f32], x: &[f32]) -> f32 {
    debug_assert_eq!(w.len(), x.len());
    let (n, step) = (w.len(), 4 * L::W);
    let mut acc = [L::splat(0.0); 4];
    let (mut i, ahead) = (0, ahead());
    while i + step <= n {
        prefetch(w.as_ptr().wrapping_add(i).cast(), ahead);
        for (a, acc) in acc.iter_mut().enumerate() {
            let at = i + a * L::W;
            *acc = L::fma(L::load(w.as_ptr().add(at)), L::load(x.as_ptr().add(at)), *acc);
        }
        i += step;
    }
    let mut sum = L::reduce_sum(L::add(L::add(acc[0], acc[1]), L::add(acc[2], acc[3])));
    for j in i..n {
        sum += w[j] * x[j];
    }
    sum
}

// ANCHOR: dot_q4_1
/// A row of Q4_1 blocks (20 bytes: `d`, `m`, 16 bytes of nibbles) against `x`, with `x_sums[b]`
/// the sum of `x` over block `b`.
///
/// # Safety
/// The CPU must have `L`'s instruction set; `x` has 32 elements per block of `row`.
#[inline(always)]
pub unsafe fn dot_q4_1<L: Lanes>(row: &[u8], x: &[f32], x_sums: &[f32]) -> f32 {
    let (mut acc, mut minima, ahead) = (L::splat(0.0), 0f32, ahead());
    for ((block, x), sum) in row.chunks_exact(20).zip(x.chunks_exact(BLOCK)).zip(x_sums) {
        let (codes, x) = (block.as_ptr().add(4), x.as_ptr());
        prefetch(block.as_ptr(), ahead);
        let mut s = L::splat(0.0);
        for c in (0..16).step_by(L::W) {
            // byte j holds element j in its low nibble and element j + 16 in its high one
            let (low, high) = L::nibbles(codes.add(c));
            s = L::fma(low, L::load(x.add(c)), s);
            s = L::fma(high, L::load(x.add(16 + c)), s);
        }
        acc = L::fma(L::splat(f16_at(block, 0)), s, acc); // d · Σ qᵢxᵢ
        minima += f16_at(block, 2) * sum; // m · Σ xᵢ
    }
    L::reduce_sum(acc) + minima
}
// ANCHOR_END: dot_q4_1

/// A row of Q8_0 blocks (34 bytes: `d`, 32 signed bytes) against `x`.
///
/// # Safety
/// The CPU must have `L`'s instruction set; `x` has 32 elements per block of `row`.
#[inline(always)]
pub unsafe fn dot_q8_0<L: Lanes>(row: &[u8], x: &[f32]) -> f32 {
    let (mut acc, ahead) = (L::splat(0.0), ahead());
    for (block, x) in row.chunks_exact(34).zip(x.chunks_exact(BLOCK)) {
        let (codes, x) = (block.as_ptr().add(2), x.as_ptr());
        prefetch(block.as_ptr(), ahead);
        let mut s = L::splat(0.0);
        for c in (0..BLOCK).step_by(L::W) {
            s = L::fma(L::signed_bytes(codes.add(c)), L::load(x.add(c)), s);
        }
        acc = L::fma(L::splat(f16_at(block, 0)), s, acc);
    }
    L::reduce_sum(acc)
}

/// A row of Q4_1 blocks expanded to `f32`, for products with several tokens, where one
/// expansion serves them all: `d·q + m` in one fused multiply-add where the CPU has it. The
/// weights are the dequantizer's ([`crate::gguf::dequantize`], unfused) bit for bit all the
/// same: `d` has an 11-bit significand and `q` 4 bits, so `d·q` is exact in `f32`, and fused or
/// not, the only rounding is the addition's.
///
/// # Safety
/// The CPU must have `L`'s instruction set; `out` has 32 elements per block of `row`.
#[inline(always)]
pub unsafe fn expand_q4_1<L: Lanes>(row: &[u8], out: &mut [f32]) {
    for (block, out) in row.chunks_exact(20).zip(out.chunks_exact_mut(BLOCK)) {
        let (d, m) = (L::splat(f16_at(block, 0)), L::splat(f16_at(block, 2)));
        for c in (0..16).step_by(L::W) {
            let (low, high) = L::nibbles(block.as_ptr().add(4 + c));
            L::store(out.as_mut_ptr().add(c), L::fma(d, low, m));
            L::store(out.as_mut_ptr().add(16 + c), L::fma(d, high, m));
        }
    }
}

/// A row of Q8_0 blocks expanded to `f32`: `d·q`, exact (11 bits times 8), as the dequantizer's.
///
/// # Safety
/// The CPU must have `L`'s instruction set; `out` has 32 elements per block of `row`.
#[inline(always)]
pub unsafe fn expand_q8_0<L: Lanes>(row: &[u8], out: &mut [f32]) {
    for (block, out) in row.chunks_exact(34).zip(out.chunks_exact_mut(BLOCK)) {
        let d = L::splat(f16_at(block, 0));
        for c in (0..BLOCK).step_by(L::W) {
            L::store(
                out.as_mut_ptr().add(c),
                L::mul(d, L::signed_bytes(block.as_ptr().add(2 + c))),
            );
        }
    }
}

//! The dot products a decode step is made of, written once against chapter 8's [`Lanes`] and
//! compiled for each instruction set by [`Isa::run`]: a row of `f32` weights, a row of Q4_1
//! blocks and a row of Q8_0 blocks, each against the activations of one token.
//!
//! A quantized row is never expanded to `f32` in memory: each block of 32 codes is turned into
//! floats in registers ([`Lanes::nibbles`], [`Lanes::signed_bytes`]) and multiplied at once.
//! For a Q4_1 block with scale `d` and minimum `m`,
//! `Σ (d·qᵢ + m)·xᵢ = d · Σ qᵢ·xᵢ + m · Σ xᵢ`, so the minimum costs one multiply per block once
//! the sums of `x` over each block are known.
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

/// How far ahead of the block in use the next bytes are asked for: the loop does so little per
/// byte that, left to the hardware prefetcher, it waits on memory.
const PREFETCH_AHEAD: usize = 1024;

/// Asks for the cache line at `p` to be loaded; harmless if `p` is past the row's end.
#[inline(always)]
fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint and never faults, whatever the address
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
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
    let mut i = 0;
    while i + step <= n {
        prefetch(w.as_ptr().wrapping_add(i + PREFETCH_AHEAD).cast());
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
    let (mut acc, mut minima) = (L::splat(0.0), 0f32);
    for ((block, x), sum) in row.chunks_exact(20).zip(x.chunks_exact(BLOCK)).zip(x_sums) {
        let (codes, x) = (block.as_ptr().add(4), x.as_ptr());
        prefetch(block.as_ptr().wrapping_add(PREFETCH_AHEAD));
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
    let mut acc = L::splat(0.0);
    for (block, x) in row.chunks_exact(34).zip(x.chunks_exact(BLOCK)) {
        let (codes, x) = (block.as_ptr().add(2), x.as_ptr());
        prefetch(block.as_ptr().wrapping_add(PREFETCH_AHEAD));
        let mut s = L::splat(0.0);
        for c in (0..BLOCK).step_by(L::W) {
            s = L::fma(L::signed_bytes(codes.add(c)), L::load(x.add(c)), s);
        }
        acc = L::fma(L::splat(f16_at(block, 0)), s, acc);
    }
    L::reduce_sum(acc)
}

/// A row of Q4_1 blocks expanded to `f32` (`d·q + m`, fused where the CPU can), for products
/// with many tokens, where one expansion serves them all.
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

/// A row of Q8_0 blocks expanded to `f32`.
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

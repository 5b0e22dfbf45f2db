//! The fast kernel, written once for any [`Lanes`]: one tile of queries against every key it may
//! see, in strips of `MR` queries.
//!
//! For each tile of keys, the keys are first copied into panels of `2W` keys (`W` floats per
//! vector), laid out so that the `2W` keys' values of one coordinate are adjacent. Then, for each
//! strip of `MR` queries:
//!
//! 1. **Scores** ([`scores`]): an `MR x 2W` block of `S = Q Kᵀ / √d` lives in `2·MR` vector
//!    registers while the `d` coordinates stream past: per coordinate, two vector loads of keys,
//!    `MR` broadcasts of a query value, `2·MR` fused multiply-adds.
//! 2. **Row operations** ([`row_max`], [`exp_and_sum`]): the strip's scores (`MR` rows of at most
//!    one tile of keys) are still in the L1 cache; max, `exp(s - m)` and the sum read them there.
//! 3. **Weighted sum** ([`weighted_sum`]): an `MR x 2W` block of the output is loaded, multiplied
//!    by the online softmax's correction, and accumulated over the tile's keys in registers:
//!    `acc += p_ij · v_j`, one broadcast of `p_ij` per row, two vector loads of `v_j`.
//!
//! No score leaves the strip: no tile of scores ever exists (the readable kernel, `tiled::tiled`,
//! keeps one row of scores per query instead).
#![allow(unsafe_code)]

use ch01_attention::DEFAULT_MASK_FILL;

use super::isa::{Isa, OnPath};
use super::lanes::{self, Lanes};
use crate::heads::Heads;
use crate::pattern::Pattern;
use crate::tiled::Tiles;

/// One thread's buffers: the packed keys and values of one key tile, one strip of scores, and
/// the running max and sum of each query of a query tile.
pub struct Scratch {
    pub(super) keys: Vec<f32>,
    pub(super) values: Vec<f32>,
    pub(super) strip: Vec<f32>,
    m: Vec<f32>,
    l: Vec<f32>,
}

impl Scratch {
    /// For the path `isa` (its vector width and strip rows), tiles of `tiles.q` queries and
    /// `tiles.k` keys of width `d`, values of width `dv`.
    pub fn new(isa: Isa, tiles: Tiles, (d, dv): (usize, usize)) -> Self {
        let (w, mr) = (isa.lanes(), isa.strip_rows());
        let stride = tiles.k.div_ceil(2 * w) * 2 * w;
        Scratch {
            keys: vec![0.0; stride * d],
            values: vec![0.0; tiles.k * dv],
            strip: vec![0.0; mr * stride],
            m: vec![0.0; tiles.q],
            l: vec![0.0; tiles.q],
        }
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        4 * (self.keys.len() + self.values.len() + self.strip.len() + self.m.len() + self.l.len())
    }
}

/// One query tile's work: queries `q0..q0 + rows` of head `h` into `out` (`rows x dv`, `rows`
/// at most `tiles.q`), with `scratch` from [`Scratch::new`] for the path it runs on.
pub struct Tile<'a> {
    pub scratch: &'a mut Scratch,
    pub qkv: (&'a Heads, &'a Heads, &'a Heads),
    pub pattern: &'a dyn Pattern,
    pub tiles: Tiles,
    pub h: usize,
    pub q0: usize,
    pub out: &'a mut [f32],
}

// ANCHOR: kernel_tile
impl OnPath for Tile<'_> {
    type Output = ();

    #[inline(always)]
    unsafe fn run<L: Lanes, const MR: usize>(self) {
        let Tile { scratch, qkv: (q, k, v), pattern, tiles, h, q0, out } = self;
        let (d, dv, nr) = (q.d, v.d, 2 * L::W);
        let rows = out.len() / dv;
        let scale = 1.0 / (d as f32).sqrt();
        let Scratch { keys, values, strip, m, l } = scratch;
        let (m, l) = (&mut m[..rows], &mut l[..rows]);
        m.fill(f32::NEG_INFINITY);
        l.fill(0.0);
        out.fill(0.0);
        let (qh, kh, vh) = (q.head(h), k.head(h), v.head(h));
        for range in pattern.key_ranges(q0, q0 + rows, k.n) {
            for k0 in range.clone().step_by(tiles.k) {
                let k1 = (k0 + tiles.k).min(range.end);
                let (cols, stride) = (k1 - k0, (k1 - k0).div_ceil(nr) * nr);
                pack_keys(&mut keys[..stride * d], &kh[k0 * d..k1 * d], d, nr);
                let v_tile = &vh[k0 * dv..k1 * dv];
                let values = pack_values(values, v_tile, dv, nr);
                let masked = !pattern.all_allowed(q0, q0 + rows, k0, k1);
                for r0 in (0..rows).step_by(MR) {
                    let mr = MR.min(rows - r0);
                    // rows past the tile's end repeat its last row; they are never stored
                    let qs: [&[f32]; MR] =
                        std::array::from_fn(|i| &qh[(q0 + r0 + i.min(mr - 1)) * d..][..d]);
                    let strip = &mut strip[..MR * stride];
                    scores::<L, MR>(&qs, &keys[..stride * d], scale, strip, stride);
                    let mut correction = [0.0f32; MR];
                    for (i, c) in correction.iter_mut().enumerate().take(mr) {
                        let row = &mut strip[i * stride..i * stride + cols];
                        if masked {
                            pattern.block(q0 + r0 + i, k0, row, DEFAULT_MASK_FILL);
                        }
                        let (mi, li) = (&mut m[r0 + i], &mut l[r0 + i]);
                        let m_new = mi.max(row_max::<L>(row));
                        *c = lanes::exp(*mi - m_new);
                        *li = *li * *c + exp_and_sum::<L>(row, m_new);
                        *mi = m_new;
                    }
                    let o = &mut out[r0 * dv..(r0 + mr) * dv];
                    weighted_sum::<L, MR>(o, (strip, stride, cols), (v_tile, values), &correction);
                }
            }
        }
        for (row, &l) in out.chunks_exact_mut(dv).zip(l.iter()) {
            row.iter_mut().for_each(|a| *a /= l);
        }
    }
}
// ANCHOR_END: kernel_tile

// ANCHOR: pack_keys
/// Copies `cols` keys of width `d` (row-major) into panels of `nr` keys: value `c` of key
/// `p·nr + t` goes to `(p·d + c)·nr + t`. Keys past `cols` are zeros. (The rows of a linear
/// layer's weight pack the same way: chapter 12 multiplies by them with [`scores`].)
pub fn pack_keys(dst: &mut [f32], keys: &[f32], d: usize, nr: usize) {
    for (p, panel) in dst.chunks_exact_mut(d * nr).enumerate() {
        let present = (keys.len() / d).saturating_sub(p * nr).min(nr);
        for (c, out) in panel.chunks_exact_mut(nr).enumerate() {
            for (t, x) in out[..present].iter_mut().enumerate() {
                *x = keys[(p * nr + t) * d + c];
            }
            out[present..].fill(0.0);
        }
    }
}
// ANCHOR_END: pack_keys

/// Copies the first `dv / nr` blocks of `nr` columns of `values` (`cols x dv`, row-major) one
/// block after the other, each `cols x nr`, so that the weighted sum reads each block's rows in
/// order; returns the filled part of `dst`.
pub(super) fn pack_values<'a>(
    dst: &'a mut [f32],
    values: &[f32],
    dv: usize,
    nr: usize,
) -> &'a [f32] {
    let cols = values.len() / dv;
    let dst = &mut dst[..dv / nr * nr * cols];
    for (b, block) in dst.chunks_exact_mut(cols * nr).enumerate() {
        for (out, row) in block.chunks_exact_mut(nr).zip(values.chunks_exact(dv)) {
            out.copy_from_slice(&row[b * nr..(b + 1) * nr]);
        }
    }
    dst
}

/// `strip[i][j] = q_i · k_j · scale` for the strip's `MR` queries and every packed key.
///
/// # Safety
/// The CPU must have `L`'s instruction set.
// ANCHOR: kernel_scores
#[inline(always)]
pub unsafe fn scores<L: Lanes, const MR: usize>(
    qs: &[&[f32]; MR],
    keys: &[f32],
    scale: f32,
    strip: &mut [f32],
    stride: usize,
) {
    let (w, d) = (L::W, qs[0].len());
    let nr = 2 * w;
    assert!(keys.len() == stride * d && strip.len() >= MR * stride && stride.is_multiple_of(nr));
    assert!(qs.iter().all(|q| q.len() == d));
    let s = L::splat(scale);
    for p in 0..stride / nr {
        let panel = keys.as_ptr().add(p * d * nr);
        let mut acc = [[L::splat(0.0); 2]; MR];
        for c in 0..d {
            let b0 = L::load(panel.add(c * nr));
            let b1 = L::load(panel.add(c * nr + w));
            for i in 0..MR {
                let a = L::splat(*qs[i].get_unchecked(c));
                acc[i][0] = L::fma(a, b0, acc[i][0]);
                acc[i][1] = L::fma(a, b1, acc[i][1]);
            }
        }
        for (i, [a0, a1]) in acc.into_iter().enumerate() {
            let dst = strip.as_mut_ptr().add(i * stride + p * nr);
            L::store(dst, L::mul(a0, s));
            L::store(dst.add(w), L::mul(a1, s));
        }
    }
}
// ANCHOR_END: kernel_scores

/// The largest value of `row` (`-inf` for an empty row). Two vectors per step, two running maxima.
///
/// # Safety
/// The CPU must have `L`'s instruction set.
#[inline(always)]
pub unsafe fn row_max<L: Lanes>(row: &[f32]) -> f32 {
    let (w, full) = (L::W, row.len() / (2 * L::W) * 2 * L::W);
    let (mut a, mut b) = (L::splat(f32::NEG_INFINITY), L::splat(f32::NEG_INFINITY));
    for j in (0..full).step_by(2 * w) {
        a = L::max(a, L::load(row.as_ptr().add(j)));
        b = L::max(b, L::load(row.as_ptr().add(j + w)));
    }
    row[full..].iter().fold(L::reduce_max(L::max(a, b)), |a, &b| a.max(b))
}

/// Replaces each `s` of `row` by `exp(s - m)` and returns their sum. Two vectors per step, so
/// that two `exp`s overlap.
///
/// # Safety
/// The CPU must have `L`'s instruction set.
#[inline(always)]
pub unsafe fn exp_and_sum<L: Lanes>(row: &mut [f32], m: f32) -> f32 {
    let (w, full) = (L::W, row.len() / (2 * L::W) * 2 * L::W);
    let (mv, mut a, mut b) = (L::splat(m), L::splat(0.0), L::splat(0.0));
    for j in (0..full).step_by(2 * w) {
        let p = row.as_mut_ptr().add(j);
        let e0 = L::exp(L::sub(L::load(p), mv));
        let e1 = L::exp(L::sub(L::load(p.add(w)), mv));
        L::store(p, e0);
        L::store(p.add(w), e1);
        a = L::add(a, e0);
        b = L::add(b, e1);
    }
    row[full..].iter_mut().fold(L::reduce_sum(L::add(a, b)), |sum, x| {
        *x = lanes::exp(*x - m);
        sum + *x
    })
}

/// `out_i = out_i · correction_i + Σ_j p_ij v_j` for the strip's rows (`out` holds `mr <= MR`
/// rows of `dv` values; `p` is the strip, rows `stride` apart, `cols` keys; `v` is `cols x dv`,
/// and `packed` its blocks of `2W` columns from [`pack_values`]).
///
/// # Safety
/// The CPU must have `L`'s instruction set.
// ANCHOR: kernel_weighted_sum
#[inline(always)]
pub unsafe fn weighted_sum<L: Lanes, const MR: usize>(
    out: &mut [f32],
    (p, stride, cols): (&[f32], usize, usize),
    (v, packed): (&[f32], &[f32]),
    correction: &[f32; MR],
) {
    let (w, dv) = (L::W, v.len() / cols.max(1));
    let nr = 2 * w;
    let mr = out.len() / dv.max(1);
    assert!(mr <= MR && out.len() == mr * dv && v.len() == cols * dv);
    assert!(mr == 0 || p.len() >= (MR - 1) * stride + cols);
    assert_eq!(packed.len(), dv / nr * nr * cols);
    if mr == 0 {
        return;
    }
    let p = (p, stride, cols);
    for (b, block) in packed.chunks_exact(cols * nr).enumerate() {
        columns::<L, MR, 2>((out, dv, b * nr), mr, p, (block, nr, 0), correction);
    }
    let mut c0 = dv / nr * nr;
    if c0 + w <= dv {
        columns::<L, MR, 1>((out, dv, c0), mr, p, (v, dv, c0), correction);
        c0 += w;
    }
    for i in 0..mr {
        for c in c0..dv {
            let sum = (0..cols).map(|j| p.0[i * stride + j] * v[j * dv + c]).sum::<f32>();
            out[i * dv + c] = out[i * dv + c] * correction[i] + sum;
        }
    }
}

/// [`weighted_sum`] for `NV` vectors of columns: output columns `oc..` (rows `ld` apart) from
/// value columns `vc..` (rows `vld` apart), in `MR · NV` registers.
#[inline(always)]
unsafe fn columns<L: Lanes, const MR: usize, const NV: usize>(
    (out, ld, oc): (&mut [f32], usize, usize),
    mr: usize,
    (p, stride, cols): (&[f32], usize, usize),
    (v, vld, vc): (&[f32], usize, usize),
    correction: &[f32; MR],
) {
    let w = L::W;
    assert!(oc + NV * w <= ld && out.len() >= mr * ld);
    assert!(cols == 0 || vc + NV * w + (cols - 1) * vld <= v.len());
    let o = out.as_mut_ptr();
    let row = |i: usize| o.add(i.min(mr - 1) * ld + oc);
    let mut acc = [[L::splat(0.0); NV]; MR];
    for (i, acc) in acc.iter_mut().enumerate() {
        let c = L::splat(correction[i]);
        for (t, a) in acc.iter_mut().enumerate() {
            *a = L::mul(L::load(row(i).add(t * w)), c);
        }
    }
    for j in 0..cols {
        let vj = v.as_ptr().add(j * vld + vc);
        let b: [L::V; NV] = std::array::from_fn(|t| L::load(vj.add(t * w)));
        for (i, acc) in acc.iter_mut().enumerate() {
            let a = L::splat(*p.get_unchecked(i * stride + j));
            for t in 0..NV {
                acc[t] = L::fma(a, b[t], acc[t]);
            }
        }
    }
    for (i, acc) in acc.iter().enumerate().take(mr) {
        for (t, &a) in acc.iter().enumerate() {
            L::store(row(i).add(t * w), a);
        }
    }
}
// ANCHOR_END: kernel_weighted_sum

//! Which keys each query may attend to. Every method of this chapter takes a [`Pattern`]; the dense
//! form takes the same pattern as a boolean mask, so each method can be checked against it.

use std::ops::Range;

use rand::rngs::StdRng;
use rand::seq::index::sample;
use rand::SeedableRng;

use crate::error::InvalidBigBird;

/// A sparsity pattern over an `n_q x n_k` score matrix (`true` = may attend, the book's
/// convention).
pub trait Pattern: Sync {
    /// May query `i` attend to key `j`?
    fn allowed(&self, i: usize, j: usize) -> bool;

    /// The keys any of the queries `q0..q1` may attend to, as sorted, disjoint ranges. The fast
    /// kernel visits only these: a pattern that says less than "all keys" is what saves the work.
    fn key_ranges(&self, _q0: usize, _q1: usize, n_k: usize) -> Vec<Range<usize>> {
        std::iter::once(0..n_k).collect()
    }

    /// Whether every key of `k0..k1` is allowed for every query of `q0..q1`; then the fast
    /// kernel skips the mask for that tile.
    fn all_allowed(&self, q0: usize, q1: usize, k0: usize, k1: usize) -> bool;

    /// Sets `row[c] = fill` wherever query `i` may not attend to key `k0 + c`.
    fn block(&self, i: usize, k0: usize, row: &mut [f32], fill: f32) {
        for (c, s) in row.iter_mut().enumerate() {
            if !self.allowed(i, k0 + c) {
                *s = fill;
            }
        }
    }
}

/// `row[..lo]` and `row[hi..]` set to `fill`: the keys outside `lo..hi` (relative to the row).
fn block_outside(row: &mut [f32], lo: usize, hi: usize, fill: f32) {
    let (lo, hi) = (lo.min(row.len()), hi.clamp(lo.min(row.len()), row.len()));
    row[..lo].fill(fill);
    row[hi..].fill(fill);
}

/// Every query sees every key: plain attention.
#[derive(Clone, Copy, Debug, Default)]
pub struct Full;

impl Pattern for Full {
    fn allowed(&self, _i: usize, _j: usize) -> bool {
        true
    }
    fn all_allowed(&self, _q0: usize, _q1: usize, _k0: usize, _k1: usize) -> bool {
        true
    }
}

/// Query `i` sees keys `0..=i`: the look-ahead mask of a decoder.
#[derive(Clone, Copy, Debug, Default)]
pub struct Causal;

impl Pattern for Causal {
    fn allowed(&self, i: usize, j: usize) -> bool {
        j <= i
    }
    fn key_ranges(&self, _q0: usize, q1: usize, n_k: usize) -> Vec<Range<usize>> {
        std::iter::once(0..q1.min(n_k)).collect()
    }
    fn all_allowed(&self, q0: usize, _q1: usize, _k0: usize, k1: usize) -> bool {
        k1 <= q0 + 1
    }
    fn block(&self, i: usize, k0: usize, row: &mut [f32], fill: f32) {
        block_outside(row, 0, (i + 1).saturating_sub(k0), fill);
    }
}

// ANCHOR: sliding_pattern
/// Query `i` sees keys `i - w ..= i + w` (only `i - w ..= i` when `causal`): a band of width
/// `2w + 1` around the diagonal, as in Longformer's local attention and Mistral's sliding window.
#[derive(Clone, Copy, Debug)]
pub struct SlidingWindow {
    pub w: usize,
    pub causal: bool,
}

impl SlidingWindow {
    /// The keys of query `i` in a sequence of `n`: `lo..hi`.
    pub fn keys(&self, i: usize, n: usize) -> Range<usize> {
        let hi = if self.causal { i + 1 } else { (i + self.w + 1).min(n) };
        i.saturating_sub(self.w)..hi
    }
}

impl Pattern for SlidingWindow {
    fn allowed(&self, i: usize, j: usize) -> bool {
        j + self.w >= i && (if self.causal { j <= i } else { j <= i + self.w })
    }
    fn key_ranges(&self, q0: usize, q1: usize, n_k: usize) -> Vec<Range<usize>> {
        let lo = q0.saturating_sub(self.w);
        let hi = if self.causal { q1 } else { q1 + self.w };
        std::iter::once(lo.min(n_k)..hi.min(n_k)).collect()
    }
    fn all_allowed(&self, q0: usize, q1: usize, k0: usize, k1: usize) -> bool {
        // the last query must still see the first key, the first query the last key
        let first_ok = k0 + self.w >= q1 - 1;
        let last_ok = if self.causal { k1 <= q0 + 1 } else { k1 <= q0 + self.w + 1 };
        first_ok && last_ok
    }
    fn block(&self, i: usize, k0: usize, row: &mut [f32], fill: f32) {
        let keys = self.keys(i, usize::MAX);
        block_outside(row, keys.start.saturating_sub(k0), keys.end.saturating_sub(k0), fill);
    }
}
// ANCHOR_END: sliding_pattern

// ANCHOR: bigbird_struct
/// BigBird's block-sparse pattern (Zaheer et al. 2020): the sequence is cut into blocks of
/// `block` tokens, and query block `a` sees key block `b` when
/// * `|a - b| <= window` (local: the neighbouring blocks),
/// * `a < global` or `b < global` (the first `global` blocks see everything and are seen by
///   everyone, as a `[CLS]` token would be),
/// * or `b` is one of the `random` blocks drawn for `a` from a seeded generator.
///
/// The random blocks are drawn from all blocks, so a draw can land on a block the window or the
/// global blocks already give: such a row sees fewer than `random` extra blocks.
#[derive(Clone, Debug)]
pub struct BigBird {
    pub block: usize,
    pub window: usize,
    pub global: usize,
    /// for each query block, the blocks drawn at random (distinct, in draw order)
    pub drawn: Vec<Vec<usize>>,
    /// for each query block, the sorted key blocks it sees
    pub visible: Vec<Vec<usize>>,
}
// ANCHOR_END: bigbird_struct

impl BigBird {
    /// The pattern for a sequence of `n` tokens (a multiple of `block`).
    ///
    /// # Panics
    /// With [`try_new`](Self::try_new)'s error: no tokens, a `block` of 0 or one that does not
    /// divide `n`, or fewer blocks than `random` to draw.
    pub fn new(
        n: usize,
        block: usize,
        window: usize,
        global: usize,
        random: usize,
        seed: u64,
    ) -> Self {
        Self::try_new(n, block, window, global, random, seed).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`new`](Self::new), or why the sizes cannot make a pattern.
    pub fn try_new(
        n: usize,
        block: usize,
        window: usize,
        global: usize,
        random: usize,
        seed: u64,
    ) -> Result<Self, InvalidBigBird> {
        Self::try_new_to_draw(n, block, window, global, random, seed, usize::MAX)
    }

    /// [`try_new`](Self::try_new) for a pattern that will be drawn block by block: sizes of more
    /// than `max_blocks` blocks are refused before anything is built (the pattern's work grows
    /// with the square of the blocks: `1 << 24` tokens in blocks of 16 would be a million rows of
    /// a million blocks each).
    pub fn try_new_to_draw(
        n: usize,
        block: usize,
        window: usize,
        global: usize,
        random: usize,
        seed: u64,
        max_blocks: usize,
    ) -> Result<Self, InvalidBigBird> {
        let blocks = Self::blocks(n, block, random)?;
        if blocks > max_blocks {
            return Err(InvalidBigBird::TooManyBlocks { blocks, max: max_blocks });
        }
        Ok(Self::build(blocks, block, window, global, random, seed))
    }

    /// The number of blocks `n` tokens in blocks of `block` make, or why they cannot make a
    /// pattern with `random` draws per row.
    fn blocks(n: usize, block: usize, random: usize) -> Result<usize, InvalidBigBird> {
        if n == 0 {
            return Err(InvalidBigBird::NoTokens);
        }
        if block == 0 || !n.is_multiple_of(block) {
            return Err(InvalidBigBird::BlockSize { n, block });
        }
        let blocks = n / block;
        if random > blocks {
            return Err(InvalidBigBird::TooManyRandom { random, blocks });
        }
        Ok(blocks)
    }

    /// The pattern of `blocks` blocks, sizes already checked.
    fn build(
        blocks: usize,
        block: usize,
        window: usize,
        global: usize,
        random: usize,
        seed: u64,
    ) -> Self {
        let mut rng = StdRng::seed_from_u64(seed);
        let drawn: Vec<Vec<usize>> =
            (0..blocks).map(|_| sample(&mut rng, blocks, random).into_vec()).collect();
        let visible = drawn
            .iter()
            .enumerate()
            .map(|(a, drawn)| {
                let mut seen: Vec<bool> =
                    (0..blocks).map(|b| Self::fixed(a, b, window, global)).collect();
                for &b in drawn {
                    seen[b] = true;
                }
                (0..blocks).filter(|&b| seen[b]).collect()
            })
            .collect();
        BigBird { block, window, global, drawn, visible }
    }

    /// Whether query block `a` sees key block `b` without any random draw: local or global.
    fn fixed(a: usize, b: usize, window: usize, global: usize) -> bool {
        a.abs_diff(b) <= window || a < global || b < global
    }

    /// The random draws that landed on a block the window or the global blocks already give,
    /// and so added nothing.
    pub fn wasted_draws(&self) -> usize {
        let (w, g) = (self.window, self.global);
        let wasted = |(a, drawn): (usize, &Vec<usize>)| {
            drawn.iter().filter(|&&b| Self::fixed(a, b, w, g)).count()
        };
        self.drawn.iter().enumerate().map(wasted).sum()
    }

    /// The share of the `n x n` scores this pattern keeps.
    pub fn density(&self) -> f64 {
        let kept: usize = self.visible.iter().map(Vec::len).sum();
        kept as f64 / (self.visible.len() * self.visible.len()) as f64
    }
}

impl Pattern for BigBird {
    fn allowed(&self, i: usize, j: usize) -> bool {
        self.visible[i / self.block].binary_search(&(j / self.block)).is_ok()
    }
    fn key_ranges(&self, q0: usize, q1: usize, n_k: usize) -> Vec<Range<usize>> {
        let mut blocks: Vec<usize> = (q0 / self.block..q1.div_ceil(self.block))
            .flat_map(|a| self.visible[a].clone())
            .collect();
        blocks.sort_unstable();
        blocks.dedup();
        merge(blocks.into_iter().map(|b| b * self.block..((b + 1) * self.block).min(n_k)))
    }
    fn all_allowed(&self, q0: usize, q1: usize, k0: usize, k1: usize) -> bool {
        (q0 / self.block..q1.div_ceil(self.block)).all(|a| {
            (k0 / self.block..k1.div_ceil(self.block))
                .all(|b| self.visible[a].binary_search(&b).is_ok())
        })
    }
}

/// Any boolean mask, `n_q x n_k`, row-major (a padding mask, say).
#[derive(Clone, Debug)]
pub struct MaskPattern {
    pub n_k: usize,
    pub allowed: Vec<bool>,
}

impl Pattern for MaskPattern {
    fn allowed(&self, i: usize, j: usize) -> bool {
        self.allowed[i * self.n_k + j]
    }
    fn all_allowed(&self, q0: usize, q1: usize, k0: usize, k1: usize) -> bool {
        (q0..q1).all(|i| self.allowed[i * self.n_k + k0..i * self.n_k + k1].iter().all(|&a| a))
    }
}

/// The pattern written out as a dense `n_q x n_k` mask, `true` = may attend (what the dense form
/// takes).
pub fn allowed_mask(pattern: &dyn Pattern, n_q: usize, n_k: usize) -> Vec<bool> {
    (0..n_q).flat_map(|i| (0..n_k).map(move |j| pattern.allowed(i, j))).collect()
}

/// How many keys each query sees.
pub fn keys_per_row(pattern: &dyn Pattern, n_q: usize, n_k: usize) -> Vec<usize> {
    (0..n_q).map(|i| (0..n_k).filter(|&j| pattern.allowed(i, j)).count()).collect()
}

/// Adjacent or overlapping ranges, sorted by start, merged into one.
fn merge(ranges: impl Iterator<Item = Range<usize>>) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    for r in ranges {
        match out.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_joins_touching_ranges() {
        assert_eq!(merge([0..2, 2..4, 6..8].into_iter()), vec![0..4, 6..8]);
    }

    /// Sizes a BigBird pattern cannot have are errors that say what to change (the notebook's
    /// try-it cell prints them), never a panic or a pattern of no blocks.
    #[test]
    fn bigbird_sizes_it_cannot_have_are_named() {
        let e = |n, block, random| BigBird::try_new(n, block, 1, 1, random, 0).unwrap_err();
        assert_eq!(e(0, 16, 2), InvalidBigBird::NoTokens);
        assert_eq!(e(256, 0, 2), InvalidBigBird::BlockSize { n: 256, block: 0 });
        assert_eq!(e(250, 16, 2).to_string(), "BigBird: blocks of 16 tokens do not divide n = 250: give a block size that divides 250, or 256 tokens (the next multiple of 16)");
        assert_eq!(e(64, 16, 5), InvalidBigBird::TooManyRandom { random: 5, blocks: 4 });
        for error in [e(0, 16, 2), e(256, 0, 2), e(64, 16, 5)] {
            assert!(error.to_string().starts_with("BigBird: "), "{error}");
            assert_eq!(error.to_string().lines().count(), 1);
        }
        let book = BigBird::try_new(256, 16, 1, 1, 2, 0).unwrap();
        assert_eq!((book.visible.len(), book.wasted_draws()), (16, 8));
        let every_block = BigBird::try_new(64, 16, 0, 0, 4, 0).unwrap();
        assert_eq!(every_block.density(), 1.0, "four draws out of four blocks see all of them");
    }

    /// The notebook's try-it cell draws at most 64 blocks: a larger size is refused before the
    /// pattern is built, so `1 << 24` tokens answer at once instead of building a million rows.
    #[test]
    fn a_pattern_too_large_to_draw_is_refused_before_it_is_built() {
        let to_draw = |n, block| BigBird::try_new_to_draw(n, block, 1, 1, 2, 0, 64);
        let error = to_draw(1 << 24, 16).unwrap_err();
        assert_eq!(error, InvalidBigBird::TooManyBlocks { blocks: 1 << 20, max: 64 });
        assert_eq!(
            error.to_string(),
            "BigBird: 1048576 blocks are more than the 64 that can be drawn here: take larger \
             blocks or fewer tokens"
        );
        // the other errors come first, as from `try_new`; 64 blocks are drawn
        assert_eq!(to_draw(250, 16).unwrap_err(), InvalidBigBird::BlockSize { n: 250, block: 16 });
        assert_eq!(to_draw(1024, 16).unwrap().visible.len(), 64);
        assert_eq!(to_draw(256, 16).unwrap().visible, BigBird::new(256, 16, 1, 1, 2, 0).visible);
    }
}

//! Chapter 8 in the page: a sparsity pattern and what it costs. The reader picks a pattern (full,
//! causal, a sliding window, BigBird's blocks) and a length; the page shows which scores it keeps
//! and times two of the chapter's kernels on seeded queries, keys and values: the dense form,
//! which builds all `n²` scores and masks them, and `sparse_head`, which computes only the kept
//! ones.

use ch08_efficient::dense::dense;
use ch08_efficient::heads::Heads;
use ch08_efficient::pattern::{allowed_mask, BigBird, Causal, Full, Pattern, SlidingWindow};
use ch08_efficient::sliding::sparse_head;
use dfdx::prelude::*;

/// Width of the seeded queries, keys and values, and their seeds.
pub const D: usize = 32;
const SEEDS: [u64; 3] = [1, 2, 3];
/// The longest sequence the page offers (its dense form holds `n²` scores).
pub const MAX_N: usize = 1024;

/// The pattern, from the page's eight numbers: kind (0 full, 1 causal, 2 sliding window, 3 causal
/// sliding window, 4 BigBird), `n`, the window `w`, then BigBird's block size, window blocks,
/// global blocks, random blocks and seed.
pub fn pattern(values: &[f32]) -> Result<(usize, Box<dyn Pattern>), String> {
    let whole = |v: f32| (v >= 0.0 && v.fract() == 0.0).then_some(v as usize);
    let numbers: Option<Vec<usize>> = values.iter().map(|&v| whole(v)).collect();
    let Some(&[kind, n, w, block, window, global, random, seed]) = numbers.as_deref() else {
        return Err(format!("a pattern takes 8 whole numbers; got {values:?}"));
    };
    if !(1..=MAX_N).contains(&n) {
        return Err(format!("n must be from 1 to {MAX_N}; got {n}"));
    }
    let pattern: Box<dyn Pattern> = match kind {
        0 => Box::new(Full),
        1 => Box::new(Causal),
        2 | 3 => Box::new(SlidingWindow { w, causal: kind == 3 }),
        4 => Box::new(
            BigBird::try_new(n, block, window, global, random, seed as u64)
                .map_err(|e| e.to_string())?,
        ),
        _ => return Err(format!("no pattern of kind {kind}: 0 to 4")),
    };
    Ok((n, pattern))
}

/// The pattern's mask, `n × n`: 1 where query `i` may attend to key `j`.
pub fn mask(values: &[f32]) -> Result<Vec<f32>, String> {
    let (n, pattern) = pattern(values)?;
    Ok(allowed_mask(&*pattern, n, n).into_iter().map(|a| f32::from(u8::from(a))).collect())
}

/// The attention of seeded queries, keys and values (`n × D`) under the pattern, by the dense
/// form (`sparse` false) or by `sparse_head`.
pub fn attend(values: &[f32], sparse: bool) -> Result<Vec<f32>, String> {
    let (n, pattern) = pattern(values)?;
    let [q, k, v] = SEEDS.map(|seed| Heads::random(seed, 1, n, D));
    Ok(if sparse {
        sparse_head(&q.data, &k.data, &v.data, (n, D, D), &*pattern)
    } else {
        dense::<D, D, _>(&Cpu::default(), &q, &k, &v, &*pattern).data
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chapter's BigBird: 256 tokens, blocks of 16, one window block, one global, two random.
    const BOOK: [f32; 8] = [4.0, 256.0, 0.0, 16.0, 1.0, 1.0, 2.0, 0.0];

    #[test]
    fn the_chapters_bigbird_keeps_its_share_and_both_kernels_agree() {
        let kept: f32 = mask(&BOOK).unwrap().iter().sum();
        assert_eq!(kept, 98.0 * 16.0 * 16.0); // the chapter's 98 block pairs of 16 × 16
        let (dense, sparse) = (attend(&BOOK, false).unwrap(), attend(&BOOK, true).unwrap());
        let diff = dense.iter().zip(&sparse).fold(0.0f32, |m, (a, b)| m.max((a - b).abs()));
        assert!(diff < 1e-5, "{diff}");
    }

    #[test]
    fn a_window_keeps_the_chapters_band() {
        let band = mask(&[2.0, 10.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0]).unwrap();
        assert_eq!(band.iter().sum::<f32>(), 44.0); // 44 pairs of 100, as the chapter counts
    }

    #[test]
    fn bad_patterns_are_refused() {
        let mut bad = BOOK;
        bad[3] = 15.0;
        assert!(mask(&bad).unwrap_err().contains("do not divide"));
        assert!(mask(&[5.0, 8.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]).unwrap_err().contains("kind 5"));
        assert!(mask(&[0.0, 2000.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
            .unwrap_err()
            .contains("1 to 1024"));
        assert!(mask(&[0.0, 8.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]).unwrap_err().contains("whole"));
    }
}

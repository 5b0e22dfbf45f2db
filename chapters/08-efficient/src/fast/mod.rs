//! The fast tiled kernel: the same online softmax as [`crate::tiled`], organised for speed.
//!
//! * Both products of a tile, `S = Q Kᵀ / √d` and `acc += P V`, run in register blocks of a
//!   vector instruction set ([`kernel`]), with the row operations (max, `exp`, sum, the
//!   correction) fused between them while a strip of scores is still in the L1 cache.
//! * The instruction set is chosen at run time ([`Isa`]): AVX-512, else AVX2 with FMA, else
//!   portable Rust (in a browser, WebAssembly's SIMD128); the kernel is written once
//!   ([`lanes::Lanes`]) and compiled for each.
//! * Tiles whose keys the pattern rules out for every query of the tile are never visited; tiles
//!   it allows entirely skip the mask.
//! * Every (head, query tile) is an independent task, spread over the cores by rayon; each thread
//!   owns one tile of packed keys and one strip of scores, the only scratch memory.
//!
//! [`stages`] runs each stage of the kernel alone, for the measurement of where its time goes.

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
pub mod isa;
pub mod kernel;
pub mod lanes;
#[cfg(target_arch = "wasm32")]
pub mod simd128;
pub mod stages;

use std::cell::RefCell;

use rayon::prelude::*;

use crate::heads::Heads;
use crate::pattern::Pattern;
use crate::tiled::Tiles;
pub use isa::{Isa, OnPath, ISA_VARIABLE};
pub use kernel::Scratch;
use kernel::Tile;

/// 256 queries by 512 keys: the blocks PyTorch's CPU flash kernel uses for long sequences. A
/// tile of keys is packed once and used by every strip of the query tile.
pub const TILES: Tiles = Tiles { q: 256, k: 512 };

/// Exact attention of every head of `q` over `k`/`v` under `pattern`, tile by tile, on the
/// instruction set [`Isa::chosen`]. Every query must be allowed at least one key (all of this
/// chapter's patterns keep the diagonal).
///
/// # Panics
/// If the heads do not fit together (other head counts, `q` and `k` of other widths, `v` not as
/// long as `k`) or a tile size is 0.
pub fn tiled(q: &Heads, k: &Heads, v: &Heads, pattern: &dyn Pattern, tiles: Tiles) -> Heads {
    tiled_on(Isa::chosen(), q, k, v, pattern, tiles)
}

// ANCHOR: fast_attention
/// [`tiled`] on the given instruction set.
///
/// # Panics
/// As [`tiled`], and if this CPU cannot run `isa`.
pub fn tiled_on(
    isa: Isa,
    q: &Heads,
    k: &Heads,
    v: &Heads,
    pattern: &dyn Pattern,
    tiles: Tiles,
) -> Heads {
    assert!(
        tiles.q > 0 && tiles.k > 0,
        "fast::tiled: tile sizes must be at least 1, got {tiles:?}"
    );
    assert_eq!(
        (q.heads, q.d),
        (k.heads, k.d),
        "fast::tiled: queries and keys differ in heads or width"
    );
    assert_eq!((v.heads, v.n), (k.heads, k.n), "fast::tiled: values must match the keys");
    let mut out = Heads::zeros(q.heads, q.n, v.d);
    if q.n == 0 || v.d == 0 {
        return out;
    }
    let dv = v.d;
    out.data
        .par_chunks_mut(q.n * dv) // one head
        .enumerate()
        .flat_map(|(h, head)| {
            head.par_chunks_mut(tiles.q * dv) // one tile of queries
                .enumerate()
                .map(move |(t, tile)| (h, t * tiles.q, tile))
        })
        .for_each(|(h, q0, out)| {
            with_scratch(isa, tiles, (q.d, v.d), |scratch| {
                isa.run(Tile { scratch, qkv: (q, k, v), pattern, tiles, h, q0, out })
            })
        });
    out
}
// ANCHOR_END: fast_attention

thread_local! {
    /// Each thread's scratch, kept between calls with the shape it was made for.
    static SCRATCH: RefCell<Option<(ScratchShape, Scratch)>> = const { RefCell::new(None) };
}

/// What a [`Scratch`] was made for: the path, the tiles, the widths of keys and values.
type ScratchShape = (Isa, Tiles, (usize, usize));

/// Runs `f` with this thread's scratch for `shape`, made on the first call with that shape. Many
/// short calls (a batch of short sequences) would otherwise spend their time allocating and
/// zeroing a fresh quarter megabyte per task.
fn with_scratch<R>(
    isa: Isa,
    tiles: Tiles,
    dims: (usize, usize),
    f: impl FnOnce(&mut Scratch) -> R,
) -> R {
    let shape = (isa, tiles, dims);
    SCRATCH.with_borrow_mut(|slot| {
        if slot.as_ref().is_none_or(|(made_for, _)| *made_for != shape) {
            *slot = Some((shape, Scratch::new(isa, tiles, dims)));
        }
        let (_, scratch) = slot.as_mut().expect("made just now");
        f(scratch)
    })
}

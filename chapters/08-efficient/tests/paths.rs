//! The fast kernel on every instruction-set path this CPU has (portable, AVX2, AVX-512): equal to
//! chapter 1's attention, with widths that exercise every column case of the kernel, and each
//! path's vector `exp` within 3e-7 of `f64`'s over the whole `f32` range.

use ch08_efficient::fast::{self, lanes, Isa, Scratch};
use ch08_efficient::{dense, Causal, Full, Heads, Pattern, Tiles};
use proptest::prelude::*;
use support::Dev;

/// The paths this CPU runs. On x86-64 AVX2 is required: a CPU without it fails here by name
/// rather than passing with its fast path untested.
fn paths() -> Vec<Isa> {
    let paths = Isa::available();
    #[cfg(target_arch = "x86_64")]
    assert!(paths.contains(&Isa::Avx2), "this CPU lacks AVX2 and FMA: its fast path is untested");
    paths
}

/// Largest difference between the fast kernel on `isa` and the dense form, for widths `D`
/// (queries and keys) and `DV` (values).
fn worst<const D: usize, const DV: usize>(
    isa: Isa,
    (seed, heads, n): (u64, usize, usize),
    pattern: &dyn Pattern,
    tiles: Tiles,
) -> f32 {
    let [q, k] = [0, 1].map(|i| Heads::random(seed * 3 + i, heads, n, D));
    let v = Heads::random(seed * 3 + 2, heads, n, DV);
    let want = dense::<D, DV, Dev>(&Dev::default(), &q, &k, &v, pattern);
    fast::tiled_on(isa, &q, &k, &v, pattern, tiles).max_abs_diff(&want)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Widths 64/64 (two-vector column blocks on every path), 16/16 (one vector of AVX-512),
    /// 7/40 (40 = 32 + 8: two vectors then one on AVX2, a scalar tail on AVX-512) and 3/5
    /// (scalar columns only).
    #[test]
    fn every_path_equals_dense_for_random_shapes(
        seed in 0u64..1000,
        heads in 1usize..4,
        n in 1usize..70,
        bq in 1usize..20,
        bk in 1usize..40,
        causal in any::<bool>(),
    ) {
        let pattern: &dyn Pattern = if causal { &Causal } else { &Full };
        let tiles = Tiles { q: bq, k: bk };
        for isa in paths() {
            let shape = (seed, heads, n);
            for (widths, diff) in [
                ("64/64", worst::<64, 64>(isa, shape, pattern, tiles)),
                ("16/16", worst::<16, 16>(isa, shape, pattern, tiles)),
                ("7/40", worst::<7, 40>(isa, shape, pattern, tiles)),
                ("3/5", worst::<3, 5>(isa, shape, pattern, tiles)),
            ] {
                prop_assert!(diff < 1e-5, "{} path, widths {widths}: {diff}", isa.name());
            }
        }
    }
}

/// At a benchmarked length, with the chapter's own tiles: 2,048 tokens fill four whole tiles of
/// 512 keys, so every strip runs the full-width path that the benchmarks time, and the online
/// softmax rescales across four tiles.
#[test]
fn every_path_equals_dense_at_a_benchmarked_length() {
    for isa in paths() {
        for (pattern, label) in
            [(&Full as &dyn Pattern, "full"), (&Causal as &dyn Pattern, "causal")]
        {
            let diff = worst::<64, 64>(isa, (7, 2, 2048), pattern, fast::TILES);
            println!("{} path, n = 2048, {label}: max |difference| {diff:.1e}", isa.name());
            assert!(diff < 1e-5, "{} path, n = 2048, {label}: {diff}", isa.name());
        }
    }
}

/// Inputs across the whole `f32` range: every 997th bit pattern (every binade, both signs, the
/// infinities), a grid of step 0.001 over `[-87, 88]`, and the edges of the clamp.
fn sweep() -> Vec<f32> {
    let mut xs: Vec<f32> = (0..=u32::MAX).step_by(997).map(f32::from_bits).collect();
    xs.extend((-87_000..=88_000).map(|i| i as f32 / 1000.0));
    let edges = [-87.0f32, 88.0, -1e9, f32::MIN, f32::MAX, f32::INFINITY, f32::NEG_INFINITY];
    xs.extend(edges.iter().flat_map(|&x| [x, x.next_down(), x.next_up()]));
    xs.extend([0.0, -0.0, f32::MIN_POSITIVE, -f32::MIN_POSITIVE]);
    xs.retain(|x| !x.is_nan());
    xs
}

/// `exp_of` gives `e^x` within 3e-7 of `f64`'s `exp` on `[-87, 88]`, 0 below and `e^88` above.
fn check_exp(name: &str, exp_of: impl Fn(&mut [f32])) {
    let xs = sweep();
    let mut got = xs.clone();
    exp_of(&mut got);
    let mut top = [88.0f32];
    exp_of(&mut top);
    let mut worst = 0.0f64;
    for (&x, &e) in xs.iter().zip(&got) {
        if x < -87.0 {
            assert_eq!(e, 0.0, "{name}: exp({x:e}) should be 0");
        } else if x > 88.0 {
            assert_eq!(e, top[0], "{name}: exp({x:e}) should saturate at exp(88)");
        } else {
            let want = f64::from(x).exp();
            worst = worst.max((f64::from(e) - want).abs() / want);
        }
    }
    assert!(worst < 3e-7, "{name}: relative error {worst:e}");
    let mut one = [0.0f32];
    exp_of(&mut one);
    assert_eq!(one[0], 1.0, "{name}: exp(0)");
}

#[test]
fn every_exp_is_within_3e_7_of_f64_exp() {
    check_exp("scalar exp", |xs| xs.iter_mut().for_each(|x| *x = lanes::exp(*x)));
    for isa in paths() {
        check_exp(&format!("{} exp", isa.name()), |xs| isa.exp_in_place(xs));
    }
}

#[test]
fn the_environment_switch_names_a_path() {
    for isa in Isa::ALL {
        assert_eq!(Isa::parse(isa.name()).is_ok(), isa.supported(), "{}", isa.name());
    }
    assert_eq!(Isa::parse(" portable\n"), Ok(Isa::Portable));
    let err = Isa::parse("sse9").unwrap_err();
    assert_eq!(err, "ATTENTION_ISA=\"sse9\" is not one of portable, simd128, avx2, avx512");
    assert_eq!(Isa::widest(), *paths().last().unwrap());
    let sizes = Isa::ALL.map(|isa| (isa.lanes(), isa.strip_rows()));
    assert_eq!(sizes, [(8, 4), (4, 6), (8, 6), (16, 12)]);
    // WebAssembly's vectors run only in the browser (the browser check compares them natively)
    assert!(!Isa::Simd128.supported());
    let err = Isa::parse("simd128").unwrap_err();
    assert_eq!(err, "ATTENTION_ISA=simd128: this CPU does not have simd128");
}

/// The sizes the page gives: tiles of 256 queries and 512 keys; a strip of 6 rows of scores is
/// 12 KiB on the AVX2 path, the unfused score tile 512 KiB; the register budget of each path's
/// block (two vectors of accumulators per row, two vectors of keys, one broadcast).
#[test]
fn the_kernels_sizes_are_the_pages() {
    assert_eq!((fast::TILES.q, fast::TILES.k), (256, 512));
    let kib = |floats: usize| floats * 4 / 1024;
    assert_eq!(kib(Isa::Avx2.strip_rows() * fast::TILES.k), 12);
    assert_eq!(kib(fast::TILES.q * fast::TILES.k), 512);
    let registers = |isa: Isa| 2 * isa.strip_rows() + 2 + 1;
    assert_eq!((registers(Isa::Avx2), 2 * Isa::Avx2.strip_rows()), (15, 12));
    assert_eq!((registers(Isa::Avx512), 2 * Isa::Avx512.strip_rows()), (27, 24));
    assert!(registers(Isa::Avx2) <= 16 && registers(Isa::Avx512) <= 32);
    // per coordinate, `scores` loads 2 key vectors and broadcasts one query value per strip row,
    // for 2 multiply-adds per row: 8 loads for 12 multiply-adds on AVX2, 14 for 24 on AVX-512
    let body = anchored(include_str!("../src/fast/kernel.rs"), "kernel_scores");
    let count = |what: &str| body.matches(what).count();
    assert_eq!((count("L::load(panel"), count("L::splat(*qs"), count("L::fma(a, b")), (2, 1, 2));
    let loads = |isa: Isa| (2 + isa.strip_rows(), 2 * isa.strip_rows());
    assert_eq!((loads(Isa::Avx2), loads(Isa::Avx512)), ((8, 12), (14, 24)));
    let per_fma = |(l, f): (usize, usize)| (l as f64 / f as f64 * 100.0).round() / 100.0;
    assert_eq!((per_fma(loads(Isa::Avx2)), per_fma(loads(Isa::Avx512))), (0.67, 0.58));
    // one thread's scratch on the AVX2 path, d = 64: packed keys and values of one tile, a
    // strip of scores, a running max and sum per query
    let floats = 512 * 64 * 2 + 6 * 512 + 2 * 256;
    assert_eq!(Scratch::new(Isa::Avx2, fast::TILES, (64, 64)).bytes(), 4 * floats);
    assert_eq!(4 * floats, 276_480);
}

/// The text between `// ANCHOR: name` and `// ANCHOR_END: name`.
fn anchored<'a>(source: &'a str, name: &str) -> &'a str {
    let start = source.find(&format!("// ANCHOR: {name}\n")).expect("the anchor");
    let end = source.find(&format!("// ANCHOR_END: {name}\n")).expect("the anchor's end");
    &source[start..end]
}

#[test]
fn the_lanes_trait_has_thirteen_operations() {
    // the methods of `trait Lanes`, counted in its source, as the page lists them
    let source = include_str!("../src/fast/lanes.rs");
    let start = source.find("pub trait Lanes {").expect("the trait");
    let body = &source[start..start + source[start..].find("\n}\n").expect("its end")];
    let names: Vec<&str> = body
        .lines()
        .filter_map(|line| line.trim().strip_prefix("unsafe fn "))
        .map(|rest| &rest[..rest.find('(').expect("a parameter list")])
        .collect();
    assert_eq!(
        names,
        [
            "splat",
            "load",
            "store",
            "fma",
            "mul",
            "add",
            "sub",
            "max",
            "exp",
            "reduce_max",
            "reduce_sum",
            "nibbles",
            "signed_bytes"
        ]
    );
    assert_eq!(names.len(), 13);
}

//! Chapter 8's fast kernel against PyTorch's `scaled_dot_product_attention`, machine by machine:
//! every ratio the page and the README state, and the goals met or missed, against the committed
//! comparison runs (`measurements/pytorch/`). Nothing is timed here.

use ch08_efficient::fast::Isa;
use ch08_efficient::measure::comparison::Comparison;
use ch08_efficient::measure::comparison::{AVX2_MACHINE, AVX512_MACHINE, AVX512_MACHINE_AVX2_PATH};
use ch08_efficient::measure::comparison::{INTEL_XEON, INTEL_XEON_AVX2_PATH};
use ch08_efficient::measure::results::GOALS;
use ch08_efficient::measure::{limits_run, measured, pytorch_run, pytorch_runs};
use ch08_efficient::measure::{sliding_keys, Method};

use crate::measurements::{ms, r};

#[test]
fn goals_against_the_committed_measurements() {
    use Method::*;
    let (b, p) = (measured(), pytorch_run(AVX2_MACHINE));
    let t = |m: Method, n: usize| b.time(m, n).expect("measured");
    let g = GOALS;
    assert_eq!(
        (g.vs_chapter1, g.vs_pytorch, g.vs_pytorch_stretch, g.window_vs_mask, g.memory_ratio),
        (3.0, 1.0, 1.2, 10.0, 1.2)
    );
    // why 10x for the window: at n = 16,384 the band of w = 256 holds 3.1 % of the scores, 32x
    // fewer than the full matrix
    let share = sliding_keys(16384) as f64 / (16384.0 * 16384.0);
    assert_eq!((r(100.0 * share, 1), r(1.0 / share, 0)), (3.1, 32.0));

    // met: chapter 1, the window, memory
    assert!(t(Dense, 2048) / t(Fast, 2048) >= g.vs_chapter1);
    assert!(t(SlidingMasked, 16384) / t(SlidingFast, 16384) >= g.window_vs_mask);
    assert!(b.memory_of(Fast, 16384).expect("measured").ratio() <= g.memory_ratio);
    // met: PyTorch's throughput, at both lengths, with and without the mask, and for the short
    // batched sequences; the stretch of 1.2x only at 2,048 tokens with the mask
    for row in &p.rows {
        assert!(row.ratio() >= g.vs_pytorch, "{row:?}");
    }
    let stretched: Vec<(usize, usize, bool)> = p
        .rows
        .iter()
        .filter(|row| row.ratio() >= g.vs_pytorch_stretch)
        .map(|row| (row.batch, row.n, row.causal))
        .collect();
    assert_eq!(stretched, [(1, 2048, true)]);
    // on the AVX-512 machine, its AVX-512 path reaches the 1.2x at every shape; its AVX2 path
    // there, forced, matches PyTorch everywhere and reaches 1.2x at one shape
    assert!(pytorch_run(AVX512_MACHINE).rows.iter().all(|row| row.ratio() >= g.vs_pytorch_stretch));
    let narrow = pytorch_run(AVX512_MACHINE_AVX2_PATH);
    assert!(narrow.rows.iter().all(|row| row.ratio() >= g.vs_pytorch));
    let stretched = narrow.rows.iter().filter(|row| row.ratio() >= g.vs_pytorch_stretch).count();
    assert_eq!(stretched, 1);
    // missed: on the Intel Xeon PyTorch is ahead at every shape, on both paths. The AVX-512 path
    // reaches 0.83x to 0.92x, 8 % to 17 % short of the goal; the AVX2 path forced there 0.55x
    // to 0.67x, 33 % to 45 % short
    for (name, want, short) in [
        (INTEL_XEON, (0.83, 0.92), (8.0, 17.0)),
        (INTEL_XEON_AVX2_PATH, (0.55, 0.67), (33.0, 45.0)),
    ] {
        let run = pytorch_run(name);
        assert!(run.rows.iter().all(|row| row.ratio() < g.vs_pytorch), "{name}: goal met?");
        let (lo, hi) = run.ratio_range();
        assert_eq!((r(lo, 2), r(hi, 2)), want, "{name}");
        let (lo, hi) = (r(lo, 2), r(hi, 2));
        assert_eq!((r(100.0 * (1.0 - hi), 0), r(100.0 * (1.0 - lo), 0)), short, "{name}");
    }
}

#[test]
fn every_comparison_run_names_its_machine_path_and_threads() {
    let runs = pytorch_runs();
    let names: Vec<&str> = runs.iter().map(|(name, _)| name.as_str()).collect();
    for want in
        [AVX2_MACHINE, AVX512_MACHINE, AVX512_MACHINE_AVX2_PATH, INTEL_XEON, INTEL_XEON_AVX2_PATH]
    {
        assert!(names.contains(&want), "measurements/pytorch/{want}.json is missing: {names:?}");
    }
    for (name, run) in &runs {
        run.check().unwrap_or_else(|e| panic!("measurements/pytorch/{name}.json: {e}"));
        assert_eq!(run.rows.len(), 6, "{name}: every shape of the comparison");
    }
    // the check refuses a run that does not name its CPU, or a path its CPU lacks
    let mut unnamed = pytorch_run(AVX2_MACHINE);
    unnamed.machine = "a machine".into();
    assert!(unnamed.check().is_err());
    let mut impossible = pytorch_run(AVX2_MACHINE);
    impossible.isa = Isa::Avx512;
    assert!(impossible.check().unwrap_err().contains("without avx512f"));
}

#[test]
fn the_avx512_machine_in_numbers() {
    let (wide, narrow) = (pytorch_run(AVX512_MACHINE), pytorch_run(AVX512_MACHINE_AVX2_PATH));
    for run in [&wide, &narrow] {
        assert!(
            run.machine.starts_with("AMD EPYC, 2 cores (avx2, fma, avx512f)"),
            "{}",
            run.machine
        );
        assert_eq!((run.torch_version.as_str(), run.torch_isa.as_str()), ("2.15.0", "AVX512"));
        assert_eq!((run.threads, run.fast_threads, run.rounds), (2, 2, 5));
    }
    assert_eq!((wide.isa, narrow.isa), (Isa::Avx512, Isa::Avx2));
    // the AVX-512 path: 2.03x to 2.24x PyTorch SDPA's throughput, at every shape
    let (lo, hi) = wide.ratio_range();
    assert_eq!((r(lo, 2), r(hi, 2)), (2.03, 2.24));
    let (a, c) = (wide.row(1, 2048, false), wide.row(1, 8192, false));
    assert_eq!((r(ms(a.torch_sdpa_s), 1), r(ms(a.fast_s), 1)), (45.4, 21.5));
    assert_eq!((r(ms(c.torch_sdpa_s), 0), r(ms(c.fast_s), 0)), (694.0, 341.0));
    let gflops = |row: &Comparison| Method::Fast.flops(row.n) * row.batch as f64 / row.fast_s / 1e9;
    assert_eq!((r(gflops(a), 0), r(gflops(c), 0)), (399.0, 403.0));
    // the AVX2 path forced on the same machine: 1.08x to 1.20x
    let (lo, hi) = narrow.ratio_range();
    assert_eq!((r(lo, 2), r(hi, 2)), (1.08, 1.2));
    // the AVX-512 path over the AVX2 path, shape by shape: 1.79x to 1.99x
    let speedups: Vec<f64> =
        wide.rows.iter().zip(&narrow.rows).map(|(w, n)| r(n.fast_s / w.fast_s, 2)).collect();
    assert_eq!(speedups, [1.82, 1.79, 1.86, 1.99, 1.95, 1.89]);
}

#[test]
fn the_readme_states_the_committed_ranges() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("the workspace README");
    let text = readme.replace('\n', " ");
    for name in [AVX2_MACHINE, AVX512_MACHINE, INTEL_XEON] {
        let (lo, hi) = pytorch_run(name).ratio_range();
        let want = format!("{lo:.2}× to {hi:.2}×");
        assert!(text.contains(&want), "README.md should state {want} for {name}");
    }
}

#[test]
fn the_intel_xeon_in_numbers() {
    let (wide, narrow) = (pytorch_run(INTEL_XEON), pytorch_run(INTEL_XEON_AVX2_PATH));
    for run in [&wide, &narrow] {
        assert!(run
            .machine
            .starts_with("Intel(R) Xeon(R) Processor, 2 cores (avx2, fma, avx512f)"));
        assert_eq!((run.torch_version.as_str(), run.torch_isa.as_str()), ("2.15.0", "AVX512"));
        assert_eq!((run.threads, run.fast_threads, run.rounds), (2, 2, 5));
    }
    assert_eq!((wide.isa, narrow.isa), (Isa::Avx512, Isa::Avx2));
    // PyTorch ahead at every shape: 0.83x to 0.92x on the AVX-512 path, 0.55x to 0.67x on AVX2
    let range = |run: &ch08_efficient::measure::comparison::PyTorchResults| {
        let (lo, hi) = run.ratio_range();
        (r(lo, 2), r(hi, 2))
    };
    assert_eq!((range(&wide), range(&narrow)), ((0.83, 0.92), (0.55, 0.67)));
    let a = wide.row(1, 2048, false);
    assert_eq!((r(ms(a.torch_sdpa_s), 1), r(ms(a.fast_s), 1)), (28.6, 33.2));
    // PyTorch's 300 GFLOP/s at 2,048 tokens, 63 % of the machine's AVX-512 peak on 2 threads
    let torch_gflops = Method::Fast.flops(2048) / a.torch_sdpa_s / 1e9;
    let peak =
        limits_run(INTEL_XEON).paths.iter().find(|p| p.peak.isa == Isa::Avx512).unwrap().peak;
    assert_eq!((r(torch_gflops, 0), r(100.0 * torch_gflops / peak.all_threads, 0)), (300.0, 63.0));
    // the spread: the slowest round at most 13 % (PyTorch) and 6 % (the kernel) above the best
    let worst = |f: fn(&Comparison) -> (f64, f64)| {
        wide.rows.iter().map(f).fold((0.0f64, 0.0f64), |(a, b), (x, y)| (a.max(x), b.max(y)))
    };
    let (sdpa, fast) = worst(|row| row.spread().expect("rounds recorded"));
    assert_eq!((r(100.0 * sdpa, 0), r(100.0 * fast, 0)), (13.0, 6.0));
    // on the forced AVX2 run, one shape had a round disturbed: 51 % and 24 %
    let c = narrow.row(1, 2048, true).spread().expect("rounds recorded");
    assert_eq!((r(100.0 * c.0, 0), r(100.0 * c.1, 0)), (51.0, 24.0));
}

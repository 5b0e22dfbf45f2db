//! Every measured number the page states, against the committed measurements. Nothing is timed
//! here: when `cargo xtask bench` or the PyTorch comparison is run again, this test says which
//! sentence of the page to update.

use ch08_efficient::fast::Isa;
use ch08_efficient::measure::comparison::Comparison;
use ch08_efficient::measure::comparison::{AVX2_MACHINE, INTEL_XEON};
use ch08_efficient::measure::{gpu_run, limits_run, measured, pytorch_run};
use ch08_efficient::measure::{sliding_keys, Method, D, HEADS};

/// `x` rounded to `decimals` places, as the page prints it.
pub(crate) fn r(x: f64, decimals: i32) -> f64 {
    let p = 10f64.powi(decimals);
    (x * p).round() / p
}

/// Seconds in milliseconds.
pub(crate) fn ms(s: f64) -> f64 {
    s * 1e3
}

#[test]
fn measured_numbers_are_the_committed_ones() {
    use Method::*;
    let b = measured();
    assert!(b.machine.starts_with("AMD EPYC, 2 cores (avx2, fma), rustc"), "{}", b.machine);
    assert!(b.machine.contains("the fast kernel's avx2 path"), "{}", b.machine);
    let t = |m: Method, n: usize| {
        b.time(m, n).unwrap_or_else(|| panic!("{} at {n} not measured", m.id()))
    };

    // slopes of log time against log n
    assert_eq!(
        (r(b.slope(Fast), 2), r(b.slope(SlidingFast), 2), r(b.slope(Linear), 2)),
        (2.02, 1.05, 1.10)
    );
    assert_eq!([16384, 32768, 65536].map(|n| r(ms(t(Linear, n)), 0)), [213.0, 464.0, 1118.0]);

    // fast against chapter 1, the causal mask, the sliding window
    assert_eq!((r(ms(t(Fast, 2048)), 1), r(ms(t(Dense, 2048)), 0)), (63.0, 939.0));
    assert_eq!(r(t(Dense, 2048) / t(Fast, 2048), 1), 14.9);
    assert_eq!(r(Fast.flops(2048) / t(Fast, 2048) / 1e9, 0), 136.0);
    assert_eq!((r(ms(t(FastCausal, 16384)), 0), r(ms(t(Fast, 16384)), 0)), (2282.0, 4590.0));
    assert_eq!(r(t(FastCausal, 16384) / t(Fast, 16384), 2), 0.50);
    // close to half only at long lengths: 0.70 at 2,048, and slower at 512 (nothing skipped)
    assert_eq!(
        (r(t(FastCausal, 2048) / t(Fast, 2048), 2), r(t(FastCausal, 512) / t(Fast, 512), 2)),
        (0.70, 1.05)
    );
    assert_eq!(
        (r(ms(t(SlidingFast, 16384)), 0), r(ms(t(SlidingMasked, 16384)), 0)),
        (234.0, 4402.0)
    );
    assert_eq!(r(t(SlidingMasked, 16384) / t(SlidingFast, 16384), 1), 18.8);
    assert_eq!(r(ms(t(SlidingReadable, 16384)), 0), 1993.0);
    assert_eq!(r(t(SlidingMasked, 16384) / t(SlidingReadable, 16384), 1), 2.2);

    // where the time goes at n = 8192, on two cores
    let k = &b.breakdown;
    assert_eq!(k.isa, Isa::Avx2);
    assert_eq!(
        (r(k.qk_gflops, 0), r(k.pv_gflops, 0), r(k.row_ns_per_score, 2)),
        (79.0, 86.0, 0.45)
    );
    let half = Fast.flops(8192) / 2.0; // each product is half of the work
    let products = (half / k.qk_gflops + half / k.pv_gflops) / 1e9 / 2.0;
    let rows = (8192.0 * 8192.0 * HEADS as f64) * k.row_ns_per_score * 1e-9 / 2.0;
    assert_eq!(
        (r(ms(products), 0), r(ms(rows), 0), r(ms(products + rows), 0)),
        (833.0, 122.0, 955.0)
    );
    assert_eq!(D, 64);

    // memory
    let mib = |x: u64| x as f64 / (1u64 << 20) as f64;
    let fast = b.memory_of(Fast, 16384).expect("measured");
    assert_eq!(
        (r(mib(fast.used()), 1), mib(fast.data_bytes), r(mib(fast.scratch_bytes), 1)),
        (129.0, 128.0, 0.5)
    );
    assert_eq!(r(fast.ratio(), 2), 1.00);
    let dense = b.memory_of(Dense, 4096).expect("measured");
    assert_eq!(
        (r(mib(dense.used()), 0), mib(dense.data_bytes), r(dense.ratio(), 0)),
        (1081.0, 32.0, 34.0)
    );
    assert_eq!(r(b.memory_of(Linear, 65536).expect("measured").ratio(), 2), 1.22);
    // at 16,384 tokens the dense scores alone: 1 GiB per head, 8 GiB for the 8 heads
    let scores_bytes = 16384u64 * 16384 * 4;
    assert_eq!((scores_bytes >> 30, (HEADS as u64 * scores_bytes) >> 30), (1, 8));

    // PyTorch, same machine, same run: each time the best of 5 rounds that alternate the sides
    let p = pytorch_run(AVX2_MACHINE);
    assert!(p.machine.starts_with("AMD EPYC, 2 cores (avx2, fma), Python"), "{}", p.machine);
    assert_eq!((p.torch_version.as_str(), p.torch_isa.as_str(), p.threads), ("2.15.0", "AVX2", 2));
    assert_eq!((p.isa, p.fast_threads, p.rounds), (Isa::Avx2, 2, 5));
    let (a, c) = (p.row(1, 2048, false), p.row(1, 8192, false));
    assert_eq!((r(ms(a.torch_sdpa_s), 1), r(ms(c.torch_sdpa_s), 0)), (64.9, 997.0));
    assert_eq!((r(ms(a.fast_s), 1), r(ms(c.fast_s), 0)), (60.7, 984.0));
    assert_eq!((r(a.ratio(), 2), r(c.ratio(), 2)), (1.07, 1.01));
    let naive = |x: &Comparison| x.torch_naive_s.expect("timed at batch 1 without a mask");
    assert_eq!((r(ms(naive(a)), 0), r(ms(naive(c)), 0)), (242.0, 4986.0));
    assert_eq!((r(naive(a) / a.fast_s, 1), r(naive(c) / c.fast_s, 1)), (4.0, 5.1));
    // the look-ahead mask, and short sequences in a batch of 4
    let (ca, cc) = (p.row(1, 2048, true), p.row(1, 8192, true));
    assert_eq!(
        (r(ms(ca.torch_sdpa_s), 1), r(ms(ca.fast_s), 1), r(ca.ratio(), 2)),
        (41.3, 32.8, 1.26)
    );
    assert_eq!(
        (r(ms(cc.torch_sdpa_s), 0), r(ms(cc.fast_s), 0), r(cc.ratio(), 2)),
        (567.0, 548.0, 1.04)
    );
    let (sa, sb) = (p.row(4, 256, false), p.row(4, 1024, false));
    assert_eq!(
        (r(ms(sa.torch_sdpa_s), 2), r(ms(sa.fast_s), 2), r(sa.ratio(), 2)),
        (4.08, 3.89, 1.05)
    );
    assert_eq!(
        (r(ms(sb.torch_sdpa_s), 1), r(ms(sb.fast_s), 1), r(sb.ratio(), 2)),
        (59.8, 59.0, 1.01)
    );
    assert_eq!(p.rows.len(), 6);

    // the goal met by 7 % and 1 %; the prediction's shares: 87 % products, 13 % row operations
    assert_eq!((r(100.0 * (a.ratio() - 1.0), 0), r(100.0 * (c.ratio() - 1.0), 0)), (7.0, 1.0));
    assert_eq!((r(products / (products + rows), 2), r(rows / (products + rows), 2)), (0.87, 0.13));
    // this kernel's predicted products and row operations against PyTorch's whole call at 8192
    assert_eq!(r(ms(c.torch_sdpa_s - products - rows), 0), 41.0);
    // and the 29 ms of the measured time that the halved one-thread stages do not explain
    assert_eq!((r(ms(products + rows), 0), r(ms(c.fast_s - products - rows), 0)), (955.0, 29.0));

    // PyTorch's fused kernel against its own plain three-operation form, same run
    assert_eq!((r(naive(a) / a.torch_sdpa_s, 2), r(naive(c) / c.torch_sdpa_s, 2)), (3.74, 5.0));

    // the comparison run's "fast vs chapter 1" (best of three calls) against criterion's (the
    // mean of many): the same pair, two runs; chapter 1's time moved more than the kernel's
    let dense_s = a.dense_s.expect("chapter 1 timed at 2048");
    assert_eq!((r(ms(dense_s), 0), r(dense_s / a.fast_s, 1)), (649.0, 10.7));
    assert!(t(Dense, 2048) / dense_s > t(Fast, 2048) / a.fast_s);
}

#[test]
fn the_measured_setup_is_the_one_the_page_states() {
    // 8 heads of width 64 in every measurement, and the sliding window of the plots and the
    // window goal is w = 256 keys on each side
    assert_eq!((HEADS, D, ch08_efficient::measure::WINDOW), (8, 64, 256));
    assert_eq!(sliding_keys(16384), 16384 * 513 - 256 * 257);
}

#[test]
fn linear_attention_memory_arithmetic() {
    let b = measured();
    let mib = |x: u64| x as f64 / (1u64 << 20) as f64;
    // `linear` runs the heads in parallel; each returns its output as its own array, and rayon's
    // `collect` copies the eight into one: for a moment the output (8 heads x n x 64 floats)
    // exists twice
    let output = |n: usize| (HEADS * n * D * 4) as u64;
    assert_eq!((mib(output(65536)), mib(output(16384))), (128.0, 32.0));
    let big = b.memory_of(Method::Linear, 65536).expect("measured");
    let small = b.memory_of(Method::Linear, 16384).expect("measured");
    let extra = |m: &ch08_efficient::measure::results::Memory| mib(m.used()) - mib(m.data_bytes);
    assert_eq!((r(extra(big), 1), r(extra(small), 1)), (112.6, 32.8));
    assert_eq!((r(big.ratio(), 2), r(small.ratio(), 2)), (1.22, 1.26));
    // that copy plus 0.8 MiB at 16,384 tokens; less than the copy at 65,536
    assert_eq!(r(extra(small) - mib(output(16384)), 1), 0.8);
    assert!(extra(big) < mib(output(65536)));
    // the feature maps are freed before that copy: two heads in flight (one per core) hold
    // phi(Q) and phi(K), 2 x 2 x 16 MiB = 64 MiB at 65,536 tokens, less than the copy
    assert!(b.machine.contains("2 cores"), "{}", b.machine);
    let features_in_flight = 2.0 * 2.0 * mib((65536 * D * 4) as u64);
    assert_eq!(features_in_flight, 64.0);
    assert!(features_in_flight < extra(big));
}

#[test]
fn the_unfused_kernels_traffic_per_tile() {
    // a tile of 256 queries x 512 keys: 512 KiB of f32 scores, moved six times by PyTorch's
    // unfused float32 kernel (written by the first product, read and written by the scaling pass,
    // read and written by the exp pass, read by the second product): 3 MiB
    let tile_bytes = 256 * 512 * 4;
    assert_eq!((tile_bytes >> 10, (6 * tile_bytes) >> 20), (512, 3));
    // against the two products' 2 x (2 x 256 x 512 x 64) operations: 33.5 million, 0.09 bytes each
    let operations = 2 * 2 * 256 * 512 * D;
    assert_eq!(operations, 33_554_432);
    assert_eq!(r(6.0 * tile_bytes as f64 / operations as f64, 2), 0.09);
}

#[test]
fn how_close_to_the_limit() {
    let limits = limits_run(INTEL_XEON);
    assert!(limits.machine.starts_with("Intel(R) Xeon(R) Processor, 2 cores (avx2, fma, avx512f)"));
    let path = |isa: Isa| *limits.paths.iter().find(|p| p.peak.isa == isa).expect("measured");
    let (wide, narrow) = (path(Isa::Avx512), path(Isa::Avx2));
    // the peaks: 240 and 130 GFLOP/s per thread (1.85x: two 512-bit FMA units), 477 and 258 on 2
    assert_eq!((r(wide.peak.one_thread, 0), r(narrow.peak.one_thread, 0)), (240.0, 130.0));
    assert_eq!((r(wide.peak.all_threads, 0), r(narrow.peak.all_threads, 0)), (477.0, 258.0));
    assert_eq!(r(wide.peak.one_thread / narrow.peak.one_thread, 2), 1.85);
    // the kernel's shares: products 57 % and 43 % of the AVX-512 peak, 75 % and 83 % of AVX2's;
    // the whole kernel 52 % and 65 %
    let pct = |x: f64| r(100.0 * x, 0);
    let (qk, pv, whole) = wide.shares();
    assert_eq!((pct(qk), pct(pv), pct(whole)), (57.0, 43.0, 52.0));
    let (qk, pv, whole) = narrow.shares();
    assert_eq!((pct(qk), pct(pv), pct(whole)), (75.0, 83.0, 65.0));
    assert_eq!((r(wide.kernel_gflops, 0), r(narrow.kernel_gflops, 0)), (250.0, 168.0));
    assert_eq!(r(wide.kernel_gflops / narrow.kernel_gflops, 2), 1.48);
    // stage by stage, AVX-512 against AVX2 on the same core
    let (ws, ns) = (wide.stages, narrow.stages);
    assert_eq!((r(ws.row_ns_per_score, 3), r(ns.row_ns_per_score, 3)), (0.243, 0.391));
    assert_eq!(r(ns.row_ns_per_score / ws.row_ns_per_score, 2), 1.61);
    assert_eq!(
        (r(ws.qk_gflops, 0), r(ns.qk_gflops, 0), r(ws.qk_gflops / ns.qk_gflops, 2)),
        (137.0, 98.0, 1.40)
    );
    assert_eq!((r(ws.pv_gflops, 0), r(ns.pv_gflops, 0)), (103.0, 108.0));
    assert_eq!(limits.paths.len(), 3, "portable, AVX2 and AVX-512");
}

/// The "On a GPU" section and the FlashAttention pitfall, against `measurements/gpu/`.
#[test]
fn the_gpu_run_in_numbers() {
    let run = gpu_run("h100");
    assert!(run.machine.contains("GPU: NVIDIA H100 80GB HBM3, 580.159.04"));
    assert_eq!((run.sdpa.torch.as_str(), run.sdpa.cuda.as_str()), ("2.11.0+cu130", "13.0"));
    assert_eq!(run.sdpa.shape, format!("batch 1, {HEADS} heads, d_k {D}"));
    let (f32_8k, f16_8k) = (run.sdpa(8192, "float32"), run.sdpa(8192, "float16"));
    // chapter 1: 30.2 ms, 3.3x the math backend's 9.03 ms, 7.3x the dispatched f32 kernel
    let dense = run.dense_ms(8192);
    assert_eq!((r(dense, 1), r(f32_8k.math_ms, 2)), (30.2, 9.03));
    assert_eq!(r(dense / f32_8k.math_ms, 1), 3.3);
    assert_eq!(r(dense / f32_8k.default_ms, 1), 7.3);
    // the dispatched f32 call is the memory-efficient kernel's time; flash refuses f32
    assert_eq!(f32_8k.flash_ms, None);
    let efficient = f32_8k.efficient_ms.unwrap();
    assert!((f32_8k.default_ms / efficient - 1.0).abs() < 0.01);
    // flash against math in f16: 3.9x at 512, 20.5x at 8,192
    let speedup = |n| {
        let row = run.sdpa(n, "float16");
        r(row.math_ms / row.flash_ms.unwrap(), 1)
    };
    assert_eq!((speedup(512), speedup(8192)), (3.9, 20.5));
    // 128 MiB of f16 weights per head at 8,192 tokens
    assert_eq!(8192 * 8192 * 2, 128 << 20);
    // dispatched f16: 0.322 ms, the time of cuDNN's 0.316, the fastest of the four; flash 0.490
    let cudnn = f16_8k.cudnn_ms.unwrap();
    assert_eq!((r(f16_8k.default_ms, 3), r(cudnn, 3)), (0.322, 0.316));
    assert_eq!(r(f16_8k.flash_ms.unwrap(), 3), 0.49);
    let fused = [f16_8k.flash_ms.unwrap(), f16_8k.efficient_ms.unwrap(), f16_8k.math_ms];
    assert!(fused.iter().all(|&t| cudnn < t));
    // up to 1,024 tokens every fused f16 kernel takes 0.1 ms or less
    for n in [512, 1024] {
        let row = run.sdpa(n, "float16");
        for t in [row.flash_ms, row.efficient_ms, row.cudnn_ms, Some(row.default_ms)] {
            assert!(t.unwrap() <= 0.1, "n = {n}: {t:?}");
        }
    }
}

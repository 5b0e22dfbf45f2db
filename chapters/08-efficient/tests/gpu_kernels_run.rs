//! "The chapter's kernels on the H200": every number of those paragraphs, recomputed from the
//! committed runs (`measurements/gpu/h200-*`, the kit's second run there, with 128 queries a
//! block), the first run (`xtask/gpu-kit/runs/2026-11-29-h200-a7a9ab0/`, 64 queries a block) and
//! the tile sweep made in it (`ch08-variants.json`, written by `compare/gpu_variants.py`).

use ch08_efficient::gpu::plan::flops;
use ch08_efficient::gpu::TILE_Q;
use ch08_efficient::measure::gpu::{parse_kernels, KernelRow, SdpaRow, SdpaRun};
use ch08_efficient::measure::gpu_kernels::{fastest, peaks};
use ch08_efficient::measure::{gpu_run, GpuRun, D, HEADS};
use serde_json::Value;

use crate::measurements::r;

const FIRST_RUN: &str = "../../xtask/gpu-kit/runs/2026-11-29-h200-a7a9ab0";

fn read(path: &str) -> String {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The page, whitespace collapsed.
fn page() -> String {
    read("../../book/src/08-efficient.md").split_whitespace().collect::<Vec<_>>().join(" ")
}

fn says(page: &str, s: &str) {
    assert!(page.contains(s), "chapter 8 should say {s:?}");
}

/// TFLOP/s of `ms` milliseconds at `n` tokens without the mask.
fn tflops(n: usize, ms: f64) -> f64 {
    flops(HEADS, n, D, false) / (ms * 1e-3) / 1e12
}

fn kernel_row(run: &GpuRun, n: usize, causal: bool) -> &KernelRow {
    run.kernels.iter().find(|k| k.n == n && k.causal == causal).unwrap()
}

fn row<'a>(rows: &'a [SdpaRow], n: usize, dtype: &str, causal: bool) -> &'a SdpaRow {
    rows.iter().find(|r| r.n == n && r.dtype == dtype && r.causal == causal).unwrap()
}

/// `lo–hi` of `values` rounded to `decimals`, as the page writes a range.
fn range(values: impl IntoIterator<Item = f64>, decimals: usize) -> String {
    let (lo, hi) = values.into_iter().fold((f64::INFINITY, 0f64), |(l, h), x| (l.min(x), h.max(x)));
    format!("{lo:.decimals$}–{hi:.decimals$}")
}

#[test]
fn the_kernels_run_in_numbers() {
    let (run, page) = (gpu_run("h200"), page());
    assert!(run.machine.contains("GPU: NVIDIA H200, 580.159.04"), "{}", run.machine);
    assert_eq!(TILE_Q, 128, "the run was made with 128 queries a block");
    let lengths = [512, 1024, 2048, 4096, 8192, 16384];
    let both = |n| [false, true].map(|c| kernel_row(&run, n, c));
    // float32: 3xTF32 is the faster kernel everywhere; its speed over SDPA's dispatched call
    let f32_ratio =
        |k: &KernelRow| run.sdpa_masked(k.n, "float32", k.causal).default_ms / k.tf32x3_ms;
    assert!(run.kernels.iter().all(|k| k.tf32x3_ms < k.plain_ms));
    assert_eq!(run.kernels.len(), 2 * lengths.len());
    let [none, masked] = both(2048);
    assert_eq!((r(f32_ratio(none), 2), r(f32_ratio(masked), 2)), (1.02, 1.01));
    let [none, masked] = both(4096);
    assert_eq!((r(f32_ratio(none), 2), r(f32_ratio(masked), 2)), (1.01, 0.86));
    says(&page, "It ran at 1.02 times SDPA's speed at 2,048 tokens (1.01 with the causal mask) and 1.01 at 4,096 without the mask.");
    says(&page, "It missed at 4,096 with the mask (0.86)");
    let beyond = run.kernels.iter().filter(|k| k.n >= 8192).map(f32_ratio);
    let beyond = range(beyond.map(|x| r(x, 2)), 2);
    says(&page, &format!("where it ran at {beyond} of SDPA's speed"));
    assert_eq!(beyond, "0.86–0.89");
    // a later call (the run of f6cc795, which changed only the tensor-core kernel): the same ratios
    let later_dir = "../../xtask/gpu-kit/runs/2026-11-29-h200-f6cc795";
    let later = GpuRun {
        sdpa: serde_json::from_str(&read(&format!("{later_dir}/sdpa_gpu.json"))).unwrap(),
        kernels: parse_kernels(&read(&format!(
            "{later_dir}/timing-ch08-efficient.example.gpu_timing.txt"
        ))),
        ..run.clone()
    };
    let again = |n: usize, causal: bool| {
        let k = kernel_row(&later, n, causal);
        r(later.sdpa_masked(n, "float32", causal).default_ms / k.tf32x3_ms, 2)
    };
    assert_eq!([again(2048, false), again(2048, true)], [1.05, 1.0]);
    assert_eq!([again(4096, false), again(4096, true)], [1.03, 0.83]);
    let beyond_again = [8192, 16384].into_iter().flat_map(|n| [again(n, false), again(n, true)]);
    assert_eq!(range(beyond_again, 2), "0.85–0.89");
    says(&page, "gave 1.05 and 1.00 at 2,048 tokens (without and with the mask), 1.03 and 0.83 at 4,096, and 0.85–0.89 beyond.");
    // the same SDPA call in the kit's first run on this machine, from 2,048 tokens on
    let first: SdpaRun =
        serde_json::from_str(&read(&format!("{FIRST_RUN}/sdpa_gpu.json"))).unwrap();
    let slower =
        run.sdpa.rows.iter().filter(|row| row.dtype == "float32" && row.n >= 2048).map(|now| {
            let then = row(&first.rows, now.n, "float32", now.causal);
            100.0 * (then.default_ms / now.default_ms - 1.0)
        });
    let slower = range(slower.map(|x| x.round()), 0);
    says(&page, &format!("the same SDPA call took {slower} % longer in the kit's first run"));
    assert_eq!(slower, "1–17");

    // half precision from 4,096 tokens: at most a third of PyTorch's fastest, cuDNN or dispatched
    let mut half = vec![];
    for k in run.kernels.iter().filter(|k| k.n >= 4096) {
        for (dtype, ms) in [("float16", k.f16_ms), ("bfloat16", k.bf16_ms)] {
            let torch = run.sdpa_masked(k.n, dtype, k.causal);
            let best = fastest(torch);
            assert!(best == torch.default_ms || Some(best) == torch.cudnn_ms, "{dtype} {}", k.n);
            half.push(r(best / ms, 2));
        }
    }
    let half = range(half, 2);
    says(&page, &format!("kernels ran at {half} of the speed of PyTorch's fastest"));
    assert_eq!(half, "0.25–0.36");

    // why: TFLOP/s at 16,384 tokens, the kernels' and PyTorch's, and shares of the peaks
    let peaks = peaks("NVIDIA H200").unwrap();
    let [k16, _] = both(16384);
    let f16 = run.sdpa(16384, "float16");
    let (ours, cudnn) = (tflops(16384, k16.f16_ms), tflops(16384, f16.cudnn_ms.unwrap()));
    let flash = tflops(16384, f16.flash_ms.unwrap());
    assert_eq!((r(ours, 0), r(100.0 * ours / peaks.half, 0)), (131.0, 13.0));
    assert_eq!((r(cudnn, 0), r(flash, 0)), (474.0, 297.0));
    says(&page, "the float16 kernel does 131 TFLOP/s, 13 % of the tensor cores' peak");
    says(&page, "cuDNN's kernel does the same work at 474 TFLOP/s");
    says(&page, "on the same `mma.sync` instructions as the chapter's) at 297.");
    let tf32 = tflops(16384, k16.tf32x3_ms);
    let plain = tflops(16384, k16.plain_ms);
    let sdpa32 = tflops(16384, run.sdpa(16384, "float32").default_ms);
    assert_eq!((r(tf32, 1), r(100.0 * tf32 / (peaks.tf32 / 3.0), 0)), (30.6, 19.0));
    assert_eq!((r(plain, 1), r(100.0 * plain / peaks.fp32, 0)), (19.2, 29.0));
    assert_eq!(r(sdpa32, 1), 34.8);
    says(&page, "3xTF32 runs at 30.6 TFLOP/s at 16,384 tokens (19 % of a third of TF32's peak");
    says(
        &page,
        "the plain kernel at 19.2 (29 % of the float32 units'). SDPA's float32 kernel does 34.8.",
    );

    // the first run, with 64 queries a block: its float16 kernel at 8,192 tokens
    let first_kernels =
        parse_kernels(&read(&format!("{FIRST_RUN}/timing-ch08-efficient.example.gpu_timing.txt")));
    let then = first_kernels.iter().find(|k| k.n == 8192 && !k.causal).unwrap();
    assert_eq!((then.f16_ms, kernel_row(&run, 8192, false).f16_ms), (1.311, 1.062));
    says(
        &page,
        "its float16 kernel took 1.311 ms at 8,192 tokens, where the table above has 1.062.",
    );
    // the chapter's summary gives the verdicts again
    let summary = format!("runs at {beyond} of its speed beyond; on halves the tensor-core kernel");
    says(&page, &summary);
    says(&page, &format!("kernel reaches {half} of PyTorch's fastest, held back by its loads"));
}

/// The sweep: every variant equal to PyTorch in float64 within its precision; 128 queries a block
/// against 64 at 64 keys a tile; 64 keys the tensor-core kernel's best at 128 queries a block.
#[test]
fn the_tile_sweep_in_numbers() {
    let sweep: Value =
        serde_json::from_str(&read(&format!("{FIRST_RUN}/ch08-variants.json"))).unwrap();
    let rows = sweep["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 22);
    let ms = |kernel: &str, q: u64, k: u64, at: &str| -> Option<f64> {
        let row =
            rows.iter().find(|r| r["kernel"] == kernel && r["tile_q"] == q && r["tile_k"] == k)?;
        row[at][0].as_f64()
    };
    for row in rows {
        let (kernel, error) = (row["kernel"].as_str().unwrap(), row["max_error"].as_f64().unwrap());
        // what the sweep found (the chapter's own tests hold each configuration to its bound)
        let bound = match kernel {
            "plain" | "tf32x3" => 1e-5,
            "f16" => 1e-3,
            _ => 1e-2,
        };
        assert!(error < bound, "{kernel} {}: {error}", row["tile_q"]);
    }
    let at = ["4096", "8192", "16384"];
    let masked = ["4096c", "8192c", "16384c"];
    for kernel in ["plain", "tf32x3", "f16", "bf16"] {
        for a in at.iter().chain(&masked) {
            let (q64, q128) = (ms(kernel, 64, 64, a).unwrap(), ms(kernel, 128, 64, a).unwrap());
            assert!(q128 < q64, "{kernel} at {a}: {q128} against {q64}");
        }
    }
    for a in at {
        for kernel in ["f16", "bf16"] {
            let k64 = ms(kernel, 128, 64, a).unwrap();
            for k in [32, 128] {
                assert!(ms(kernel, 128, k, a).is_none_or(|t| t > k64), "{kernel} {k} keys at {a}");
            }
        }
    }
    let gain = |keys: [&str; 3]| {
        range(keys.map(|a| r(ms("f16", 64, 64, a).unwrap() / ms("f16", 128, 64, a).unwrap(), 2)), 2)
    };
    let page = page();
    says(
        &page,
        &format!(
            "the kernel got {} times faster at 4,096 to 16,384 tokens ({} with the mask)",
            gain(at),
            gain(masked)
        ),
    );
    assert_eq!((gain(at), gain(masked)), ("1.25–1.30".to_string(), "1.18–1.26".to_string()));
    says(&page, "128 queries a block beat 64 for all three kernels at every length from 4,096 tokens, with and without the mask.");
    says(&page, "Of 32, 64 and 128 keys a tile, 64 was the tensor-core kernel's fastest at 128 queries a block at those lengths without the mask.");
}

/// The first `tiled_attention_mma` launch in an Nsight Compute report: `metric` as printed.
fn counter(report: &str, metric: &str) -> f64 {
    let launch =
        report.split("  tiled_attention_mma (").nth(1).expect("a tiled_attention_mma launch");
    let line = launch.lines().find(|l| l.trim_start().starts_with(metric)).expect(metric);
    line.split_whitespace().last().unwrap().replace(',', "").parse().unwrap()
}

/// "Counted, and one step dropped": the counters of the float16 kernel at 8,192 tokens, as run
/// (`ncu-8192.txt` of the second run) and with V's words permuted (the run of `f6cc795`).
#[test]
fn the_counters_in_numbers() {
    let kept = read("../../xtask/gpu-kit/runs/2026-11-29-h200-84be82a/ncu-8192.txt");
    let dropped = read("../../xtask/gpu-kit/runs/2026-11-29-h200-f6cc795/ncu-8192.txt");
    let page = page();
    let tensor =
        counter(&kept, "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active");
    let l1 = counter(&kept, "L1/TEX Cache Throughput");
    assert_eq!((r(tensor, 0), r(l1, 0)), (21.0, 64.0));
    says(&page, "the tensor cores were busy 21 % of the time and the unit that serves shared memory and the L1 cache 64 %.");
    let millions = |report: &str, metric: &str| r(counter(report, metric) / 1e6, 1);
    let stores = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
    let conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
    assert_eq!((millions(&kept, stores), millions(&kept, conflicts)), (72.6, 60.0));
    assert_eq!(millions(&dropped, conflicts), 1.4);
    says(&page, "Of its 72.6 M shared-memory store wavefronts, 60.0 M were bank conflicts");
    says(&page, "cut the conflicts to 1.4 M and ran slower");
    let instructions = |report: &str| r(counter(report, "smsp__inst_executed.sum") / 1e6, 0);
    assert_eq!((instructions(&kept), instructions(&dropped)), (461.0, 637.0));
    says(&page, "raised the instructions executed from 461 M to 637 M.");
    // the same kernel timed by gpu_timing in each run, with and without the permutation
    let timed = |run: &str| {
        let text = read(&format!(
            "../../xtask/gpu-kit/runs/{run}/timing-ch08-efficient.example.gpu_timing.txt"
        ));
        parse_kernels(&text).into_iter().find(|k| k.n == 8192 && !k.causal).unwrap().f16_ms
    };
    assert_eq!(
        (timed("2026-11-29-h200-f6cc795"), timed("2026-11-29-h200-84be82a")),
        (1.679, 1.062)
    );
    says(&page, "1.679 ms against 1.062 at 8,192 tokens");
    // the kernel as kept: V transposed with 8 halves of padding a row
    assert!(ch08_efficient::gpu::SOURCE_MMA.contains("#define VT_STRIDE (TILE_K + 8)"));
}

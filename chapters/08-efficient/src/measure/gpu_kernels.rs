//! The chapter's own CUDA kernels timed on a GPU (`examples/gpu_timing.rs`, run by the GPU kit's
//! `run.sh --timings`), beside PyTorch's SDPA from the same run (`compare/sdpa_gpu.py`). One file
//! per GPU in `measurements/gpu/`: `<gpu>-kernels.txt`, what `gpu_timing` printed; a run made
//! before the kernels existed has none. The table sets each kernel against the goal the chapter
//! gives it: the float32 kernels against PyTorch's SDPA in float32 (its memory-efficient kernel),
//! the half-precision kernel against PyTorch's fastest backend in the same type.

use super::gpu::{GpuRun, KernelRow, SdpaRow};
use super::method::{D, HEADS};

/// PyTorch's fastest time for one row: the dispatched call and every backend that took it.
pub fn fastest(row: &SdpaRow) -> f64 {
    [row.flash_ms, row.efficient_ms, row.cudnn_ms, Some(row.math_ms), Some(row.default_ms)]
        .into_iter()
        .flatten()
        .fold(f64::INFINITY, f64::min)
}

/// A GPU's dense peak throughput per precision, TFLOP/s: NVIDIA's datasheets for the H100 SXM5
/// (`NVIDIA H100 80GB HBM3`) and the H200 SXM, which give the same figures (TF32 and half
/// precision there are quoted with sparsity, twice these).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Peaks {
    /// the ordinary float32 units
    pub fp32: f64,
    /// the tensor cores on TF32
    pub tf32: f64,
    /// the tensor cores on float16 or bfloat16 with float32 sums
    pub half: f64,
}

/// The peaks of the GPU the runner names (`GPU: <name>, <driver>, <memory>`), if known.
pub fn peaks(gpu: &str) -> Option<Peaks> {
    let name = gpu.split(',').next().unwrap_or("");
    let hopper = name.contains("H100 80GB HBM3") || name.contains("H200");
    hopper.then_some(Peaks { fp32: 67.0, tf32: 494.7, half: 989.4 })
}

impl GpuRun {
    /// The kernels' throughput without the mask as shares of the GPU's peaks: the plain kernel of
    /// the float32 units', 3xTF32 of a third of TF32's (it does three products for one), the
    /// half-precision kernel of the tensor cores'. `None` without kernels or known peaks.
    pub fn peak_table(&self) -> Option<String> {
        let gpu = self.machine.lines().find_map(|l| l.strip_prefix("GPU: ")).unwrap_or("");
        let peaks = peaks(gpu)?;
        let rows: Vec<&KernelRow> = self.kernels.iter().filter(|k| !k.causal).collect();
        if rows.is_empty() {
            return None;
        }
        let mut out = format!(
            "TFLOP/s without the mask, and the share of the peak each kernel can reach (float32 \
             units {}, a third of TF32's {}, half precision {}):\n\n\
             | n | plain f32 | 3xTF32 | f16 | bf16 |\n|---:|---:|---:|---:|---:|",
            peaks.fp32, peaks.tf32, peaks.half
        );
        for k in rows {
            let tflops =
                |ms: f64| crate::gpu::plan::flops(HEADS, k.n, D, false) / (ms * 1e-3) / 1e12;
            let cell = |ms: f64, peak: f64| {
                format!("{:.1} ({:.0} %)", tflops(ms), 100.0 * tflops(ms) / peak)
            };
            out += &format!(
                "\n| {} | {} | {} | {} | {} |",
                k.n,
                cell(k.plain_ms, peaks.fp32),
                cell(k.tf32x3_ms, peaks.tf32 / 3.0),
                cell(k.f16_ms, peaks.half),
                cell(k.bf16_ms, peaks.half)
            );
        }
        Some(out + "\n")
    }

    /// PyTorch's row at `n` in `dtype`, with or without the mask.
    pub fn sdpa_masked(&self, n: usize, dtype: &str, causal: bool) -> &SdpaRow {
        let row =
            self.sdpa.rows.iter().find(|r| r.n == n && r.dtype == dtype && r.causal == causal);
        row.unwrap_or_else(|| panic!("no {dtype} row at n = {n}, causal {causal}"))
    }

    /// The page's table of the chapter's kernels against PyTorch; `None` for a run without them.
    pub fn kernels_table(&self) -> Option<String> {
        if self.kernels.is_empty() {
            return None;
        }
        let mut out =
            "Milliseconds; × is PyTorch's time over the kernel's (above 1: the kernel is \
                       faster).\n\n| n | mask | plain f32 | 3xTF32 | SDPA f32 | best f32 kernel × \
                       | f16 | fastest PyTorch f16 | × | bf16 | fastest PyTorch bf16 | × |\n\
                       |---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
                .to_string();
        for k in &self.kernels {
            let f32_row = self.sdpa_masked(k.n, "float32", k.causal);
            let (f16, bf16) = (
                fastest(self.sdpa_masked(k.n, "float16", k.causal)),
                fastest(self.sdpa_masked(k.n, "bfloat16", k.causal)),
            );
            let best_f32 = k.plain_ms.min(k.tf32x3_ms);
            out += &format!(
                "\n| {} | {} | {:.3} | {:.3} | {:.3} | {:.2}× | {:.3} | {:.3} | {:.2}× | {:.3} | {:.3} \
                 | {:.2}× |",
                k.n,
                if k.causal { "causal" } else { "none" },
                k.plain_ms,
                k.tf32x3_ms,
                f32_row.default_ms,
                f32_row.default_ms / best_f32,
                k.f16_ms,
                f16,
                f16 / k.f16_ms,
                k.bf16_ms,
                bf16,
                bf16 / k.bf16_ms,
            );
        }
        Some(out + "\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::gpu::{parse_kernels, SdpaRun};

    /// What `gpu_timing` prints, with made-up times.
    const PRINTED: &str = "batch 1, 8 heads, d_k 64; best of 3 after a warm-up; ms (TFLOP/s)\n\
        plain: the float32 kernel, one thread per query row; 3xTF32: float32 on the\n\
        precision; chapter 1: dfdx, float32\n\
             n causal             plain            3xTF32               f16              bf16         chapter 1\n\
          2048  false      2.000 (4.3)      0.400 (21.5)      0.100 (85.9)      0.120 (71.6)      2.000 (4.3)\n\
          2048   true      1.100 (3.9)      0.250 (17.2)      0.060 (71.6)      0.070 (61.4)      2.100 (2.0)\n";

    fn row(n: usize, dtype: &str, causal: bool, ms: [Option<f64>; 5]) -> String {
        let cell = |x: Option<f64>| x.map_or("null".to_string(), |v| v.to_string());
        format!(
            "{{\"n\": {n}, \"dtype\": \"{dtype}\", \"causal\": {causal}, \"default_ms\": {}, \
             \"flash_ms\": {}, \"efficient_ms\": {}, \"cudnn_ms\": {}, \"math_ms\": {}}}",
            cell(ms[0]),
            cell(ms[1]),
            cell(ms[2]),
            cell(ms[3]),
            cell(ms[4])
        )
    }

    fn run() -> GpuRun {
        let mut rows = Vec::new();
        for causal in [false, true] {
            let c = if causal { 0.5 } else { 1.0 };
            rows.push(row(
                2048,
                "float32",
                causal,
                [Some(0.8 * c), None, Some(0.8 * c), None, Some(1.6 * c)],
            ));
            rows.push(row(
                2048,
                "float16",
                causal,
                [Some(0.06 * c), Some(0.07 * c), Some(0.1 * c), Some(0.05 * c), Some(0.7 * c)],
            ));
            rows.push(row(
                2048,
                "bfloat16",
                causal,
                [Some(0.07 * c), Some(0.06 * c), Some(0.1 * c), None, Some(0.7 * c)],
            ));
        }
        let json = format!(
            "{{\"gpu\": \"G\", \"torch\": \"t\", \"cuda\": \"c\", \"shape\": \"s\", \"rows\": [{}]}}",
            rows.join(", ")
        );
        let sdpa: SdpaRun = serde_json::from_str(&json).unwrap();
        GpuRun { sdpa, dense: vec![], machine: String::new(), kernels: parse_kernels(PRINTED) }
    }

    #[test]
    fn the_timing_programs_rows_are_read() {
        let rows = parse_kernels(PRINTED);
        assert_eq!(rows.len(), 2);
        assert_eq!(
            rows[1],
            KernelRow {
                n: 2048,
                causal: true,
                plain_ms: 1.1,
                tf32x3_ms: 0.25,
                f16_ms: 0.06,
                bf16_ms: 0.07,
                dense_ms: 2.1
            }
        );
    }

    #[test]
    fn each_kernel_is_set_against_its_goals_reference() {
        let run = run();
        // PyTorch's fastest f16 is cuDNN's 0.05 ms; bf16's flash 0.06 (cuDNN refused it)
        assert_eq!(fastest(run.sdpa_masked(2048, "float16", false)), 0.05);
        assert_eq!(fastest(run.sdpa_masked(2048, "bfloat16", false)), 0.06);
        let table = run.kernels_table().unwrap();
        let lines: Vec<&str> = table.lines().collect();
        // f32: SDPA's 0.8 ms over 3xTF32's 0.4 = 2.00x; f16: 0.05 / 0.1; bf16: 0.06 / 0.12
        assert_eq!(
            lines[4],
            "| 2048 | none | 2.000 | 0.400 | 0.800 | 2.00× | 0.100 | 0.050 | 0.50× | 0.120 | 0.060 | 0.50× |"
        );
        assert!(
            lines[5].starts_with("| 2048 | causal | 1.100 | 0.250 | 0.400 | 1.60× |"),
            "{}",
            lines[5]
        );
        let before = GpuRun { kernels: vec![], ..run };
        assert_eq!(before.kernels_table(), None);
    }

    #[test]
    fn the_kernels_are_set_against_the_gpus_peaks() {
        assert_eq!(peaks("NVIDIA H200, 580.1, 143771 MiB"), peaks("NVIDIA H100 80GB HBM3, 580"));
        assert_eq!(peaks("NVIDIA A100-SXM4-80GB, 550"), None);
        let mut run = run();
        assert_eq!(run.peak_table(), None, "no GPU named: no peaks");
        run.machine =
            "GPU: NVIDIA H100 80GB HBM3, 580.159.04, 81559 MiB (name, driver, memory)".into();
        let table = run.peak_table().unwrap();
        // 4 · 8 · 2048² · 64 = 8.59 GFLOP: 2 ms is 4.3 TFLOP/s, 6 % of 67; 0.4 ms 21.5, 13 % of 164.9
        assert_eq!(
            table.lines().last().unwrap(),
            "| 2048 | 4.3 (6 %) | 21.5 (13 %) | 85.9 (9 %) | 71.6 (7 %) |"
        );
    }
}

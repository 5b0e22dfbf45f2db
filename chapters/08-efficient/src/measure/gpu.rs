//! The GPU comparison: chapter 1's dense attention on dfdx's CUDA device beside PyTorch's
//! `F.scaled_dot_product_attention` on the same GPU, per backend and precision. One committed run
//! per GPU in `measurements/gpu/`: `<gpu>-dense.txt` (what chapter 1's `device_timing` example
//! printed, built with `--features cuda`), `<gpu>-sdpa.json` (what `compare/sdpa_gpu.py` wrote) and
//! `<gpu>-machine.txt` (driver and library versions); `cargo xtask gpu-kit` and its runner's
//! `--timings` make them, with `<gpu>-kernels.txt`: what the chapter's own kernels took (their
//! tables are [`gpu_kernels`](super::gpu_kernels)'s).

use serde::Deserialize;

/// One length and precision of `compare/sdpa_gpu.py`: milliseconds per backend, `None` where the
/// backend refused the inputs (flash attention and cuDNN take no float32).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct SdpaRow {
    pub n: usize,
    /// `float32`, `float16` or `bfloat16`
    pub dtype: String,
    /// with `is_causal=True` (runs before the mask was timed have no such field: without it)
    #[serde(default)]
    pub causal: bool,
    /// as PyTorch dispatches the call on its own
    pub default_ms: f64,
    pub flash_ms: Option<f64>,
    pub efficient_ms: Option<f64>,
    pub cudnn_ms: Option<f64>,
    /// `softmax(q kᵀ / √d) v` in separate kernels, the weights held in memory
    pub math_ms: f64,
}

/// What `compare/sdpa_gpu.py` wrote.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct SdpaRun {
    pub gpu: String,
    pub torch: String,
    pub cuda: String,
    pub shape: String,
    pub rows: Vec<SdpaRow>,
}

/// One committed GPU run: both sides and the machine.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuRun {
    pub sdpa: SdpaRun,
    /// chapter 1's dense attention, f32: `(n, milliseconds)`
    pub dense: Vec<(usize, f64)>,
    /// the runner's machine lines: host, GPU with driver, CUDA, torch
    pub machine: String,
    /// the chapter's own kernels (`<gpu>-kernels.txt`); empty for a run made before them
    pub kernels: Vec<KernelRow>,
}

/// The committed run named `gpu` (`"h100"`).
pub fn gpu_run(gpu: &str) -> GpuRun {
    let read = |suffix: &str| {
        let path = format!("{}/measurements/gpu/{gpu}-{suffix}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{path}: {e}; `run.sh --timings` of the GPU kit writes it"))
    };
    let sdpa = serde_json::from_str(&read("sdpa.json")).expect("measurements/gpu: sdpa.json");
    let kernels = format!("{}/measurements/gpu/{gpu}-kernels.txt", env!("CARGO_MANIFEST_DIR"));
    let kernels =
        std::fs::read_to_string(kernels).map_or_else(|_| Vec::new(), |t| parse_kernels(&t));
    GpuRun { sdpa, dense: parse_dense(&read("dense.txt")), machine: read("machine.txt"), kernels }
}

/// One line of `gpu_timing`: milliseconds per kernel at one length, without or with the mask.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelRow {
    pub n: usize,
    pub causal: bool,
    /// the plain float32 kernel
    pub plain_ms: f64,
    /// the float32 tensor-core kernel
    pub tf32x3_ms: f64,
    pub f16_ms: f64,
    pub bf16_ms: f64,
    /// chapter 1's attention on dfdx
    pub dense_ms: f64,
}

/// The rows of `gpu_timing`'s table: `n causal` and five cells `ms (TFLOP/s)`.
pub fn parse_kernels(text: &str) -> Vec<KernelRow> {
    text.lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split_whitespace().collect();
            let [n, causal, rest @ ..] = &cells[..] else { return None };
            let ms: Vec<f64> =
                rest.iter().step_by(2).map(|c| c.parse().ok()).collect::<Option<_>>()?;
            let [plain_ms, tf32x3_ms, f16_ms, bf16_ms, dense_ms] = ms[..] else { return None };
            Some(KernelRow {
                n: n.parse().ok()?,
                causal: causal.parse().ok()?,
                plain_ms,
                tf32x3_ms,
                f16_ms,
                bf16_ms,
                dense_ms,
            })
        })
        .collect()
}

/// The rows of `device_timing`'s table (`n`, `ms`, `GFLOP/s`); it must have run on the GPU.
fn parse_dense(text: &str) -> Vec<(usize, f64)> {
    assert!(text.contains("device: dfdx::tensor::cuda"), "dense.txt was not timed on the GPU");
    text.lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split_whitespace().collect();
            match cells[..] {
                [n, ms, _] => Some((n.parse().ok()?, ms.parse().ok()?)),
                _ => None,
            }
        })
        .collect()
}

impl GpuRun {
    /// PyTorch's row at `n` in `dtype`, without the mask.
    pub fn sdpa(&self, n: usize, dtype: &str) -> &SdpaRow {
        let row = self.sdpa.rows.iter().find(|r| r.n == n && r.dtype == dtype && !r.causal);
        row.unwrap_or_else(|| panic!("no {dtype} row at n = {n}"))
    }

    /// Chapter 1's time at `n`, in milliseconds.
    pub fn dense_ms(&self, n: usize) -> f64 {
        let found = self.dense.iter().find(|(m, _)| *m == n);
        found.unwrap_or_else(|| panic!("no dense time at n = {n}")).1
    }

    /// The page's table: for each length, chapter 1 and PyTorch in f32, then PyTorch in f16 by
    /// backend, and the two ratios the page discusses.
    pub fn table(&self) -> String {
        let ms = |x: f64| format!("{x:.3}");
        let gpu = self.machine.lines().find_map(|l| l.strip_prefix("GPU: ")).unwrap_or("");
        let gpu = gpu.trim_end_matches(" (name, driver, memory)");
        let mut out = format!(
            "**{gpu}** (GPU, driver, memory); PyTorch {}, CUDA {}; {}; milliseconds, best of 3 \
             after a warm-up, forward only\n\n",
            self.sdpa.torch, self.sdpa.cuda, self.sdpa.shape
        );
        out +=
            "| n | chapter 1 dense, f32 | SDPA f32 (dispatched) | math f32 | math f16 | flash f16 \
                | cuDNN f16 | SDPA f16 (dispatched) | chapter 1 / SDPA, f32 | math / flash, f16 |\n\
                |---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";
        for &(n, dense) in &self.dense {
            let (f32_row, f16_row) = (self.sdpa(n, "float32"), self.sdpa(n, "float16"));
            let flash = f16_row.flash_ms.expect("flash attention takes float16");
            let cudnn = f16_row.cudnn_ms.map_or_else(|| "–".to_string(), ms);
            out += &format!(
                "\n| {n} | {} | {} | {} | {} | {} | {cudnn} | {} | {:.1}× | {:.1}× |",
                ms(dense),
                ms(f32_row.default_ms),
                ms(f32_row.math_ms),
                ms(f16_row.math_ms),
                ms(flash),
                ms(f16_row.default_ms),
                dense / f32_row.default_ms,
                f16_row.math_ms / flash,
            );
        }
        out + "\n"
    }
}

/// The page's GPU tables, one per committed run.
pub fn gpu_tables() -> String {
    super::results::json_names("measurements/gpu", "run.sh --timings of the GPU kit writes it")
        .iter()
        .filter_map(|name| name.strip_suffix("-sdpa"))
        .map(|gpu| {
            let run = gpu_run(gpu);
            let kernels = [run.kernels_table(), run.peak_table()].into_iter().flatten();
            kernels.fold(run.table(), |out, table| out + "\n" + &table)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::parse_dense;

    #[test]
    fn the_dense_table_is_read_from_the_examples_output() {
        let text = "device: dfdx::tensor::cuda::device::Cuda\nbatch 1, 8 heads\n     n    ms    GFLOP/s\n   512   0.176   3044.6\n";
        assert_eq!(parse_dense(text), vec![(512, 0.176)]);
    }

    #[test]
    #[should_panic(expected = "not timed on the GPU")]
    fn a_cpu_timing_is_refused() {
        parse_dense("device: dfdx::tensor::cpu::device::Cpu\n   512   0.176   3044.6\n");
    }
}

//! The PyTorch comparison: one committed run per machine and path in `measurements/pytorch/`
//! (written by `compare/compare_pytorch.py`), what each run must say about itself, and the
//! page's tables made from them.

use serde::{Deserialize, Serialize};

use crate::fast::Isa;
use crate::measure::results::{json_names, load, millis};

/// PyTorch and this crate in one run, at one shape.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// sequences in the batch, each of [`super::HEADS`] heads
    pub batch: usize,
    pub n: usize,
    /// the look-ahead mask (`is_causal=True`, and this crate's `Causal` pattern)
    pub causal: bool,
    /// `F.scaled_dot_product_attention`
    pub torch_sdpa_s: f64,
    /// PyTorch's `softmax(q kᵀ / √d) v`, three operations (batch 1 without a mask only)
    pub torch_naive_s: Option<f64>,
    /// this crate's fast tiled kernel
    pub fast_s: f64,
    /// chapter 1's dense attention (only where it fits the time budget)
    pub dense_s: Option<f64>,
    /// each round's best call of `F.scaled_dot_product_attention` (empty in runs made before the
    /// script recorded rounds)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub torch_sdpa_rounds_s: Vec<f64>,
    /// each round's best call of the fast kernel (empty in runs made before the script recorded
    /// rounds)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fast_rounds_s: Vec<f64>,
}

impl Comparison {
    /// The fast kernel's throughput over PyTorch SDPA's: above 1 is faster than PyTorch.
    pub fn ratio(&self) -> f64 {
        self.torch_sdpa_s / self.fast_s
    }

    /// How far the slowest round's time lies above the best, for PyTorch and for the fast kernel
    /// (`0.05` = 5 % slower), where the rounds were recorded.
    pub fn spread(&self) -> Option<(f64, f64)> {
        let over_best = |rounds: &[f64], best: f64| {
            rounds.iter().cloned().fold(f64::NEG_INFINITY, f64::max) / best - 1.0
        };
        (!self.fast_rounds_s.is_empty()).then(|| {
            (
                over_best(&self.torch_sdpa_rounds_s, self.torch_sdpa_s),
                over_best(&self.fast_rounds_s, self.fast_s),
            )
        })
    }
}

/// The comparison script's output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PyTorchResults {
    /// CPU model, cores, the vector extensions it has, Python
    pub machine: String,
    pub torch_version: String,
    /// ATen's vector level (`torch.backends.cpu.get_cpu_capability()`): the instruction set of
    /// PyTorch's own vectorised kernels, such as the softmax inside its fused attention. It is not
    /// the path its BLAS (MKL, oneDNN) takes for a matrix product: the BLAS chooses that itself.
    pub torch_isa: String,
    /// the fast kernel's instruction-set path
    pub isa: Isa,
    /// PyTorch's threads; the fast kernel's rayon threads
    pub threads: usize,
    pub fast_threads: usize,
    /// rounds that alternate the two sides; each time is the best over all of them
    pub rounds: usize,
    pub rows: Vec<Comparison>,
}

impl PyTorchResults {
    /// The vector extensions the machine line names: `"AMD EPYC, 2 cores (avx2, fma), Python
    /// 3.11.7"` has `["avx2", "fma"]`.
    pub fn extensions(&self) -> Vec<&str> {
        let inside = self.machine.split_once(" cores (").and_then(|(_, rest)| rest.split_once(')'));
        inside.map_or(Vec::new(), |(list, _)| list.split(", ").filter(|x| !x.is_empty()).collect())
    }

    /// What a committed run must say about itself: the CPU (`"<model>, N cores (<extensions>),
    /// Python <version>"`), a path that CPU can run, both sides' threads, and every row's rounds.
    pub fn check(&self) -> Result<(), String> {
        let (model, rest) = self
            .machine
            .split_once(", ")
            .ok_or_else(|| format!("machine {:?} does not name its CPU", self.machine))?;
        let cores = rest.split(' ').next().and_then(|c| c.parse::<usize>().ok());
        if model.trim().is_empty() || cores.is_none() || !rest.contains(" cores (") {
            return Err(format!("machine {:?} is not \"<CPU>, N cores (...)\"", self.machine));
        }
        let needs = match self.isa {
            Isa::Avx512 => Some("avx512f"),
            Isa::Avx2 => Some("avx2"),
            // a comparison with PyTorch runs natively: no CPU lists WebAssembly's vectors
            Isa::Simd128 => Some("simd128"),
            Isa::Portable => None,
        };
        if let Some(ext) = needs.filter(|e| !self.extensions().contains(e)) {
            return Err(format!("the {} path ran on a CPU without {ext}", self.isa.name()));
        }
        if self.torch_isa.is_empty() || self.threads == 0 || self.fast_threads == 0 {
            return Err("PyTorch's vector level and both sides' threads must be recorded".into());
        }
        if self.rows.is_empty() || self.rounds == 0 {
            return Err("no rows, or no rounds".into());
        }
        for r in &self.rows {
            let best =
                |rounds: &[f64], b: f64| rounds.iter().cloned().fold(f64::INFINITY, f64::min) == b;
            let recorded = !r.fast_rounds_s.is_empty();
            if recorded
                && (r.fast_rounds_s.len() != self.rounds
                    || r.torch_sdpa_rounds_s.len() != self.rounds
                    || !best(&r.fast_rounds_s, r.fast_s)
                    || !best(&r.torch_sdpa_rounds_s, r.torch_sdpa_s))
            {
                return Err(format!(
                    "batch {}, n {}: the rounds are not {} times whose best is the row's",
                    r.batch, r.n, self.rounds
                ));
            }
        }
        Ok(())
    }

    /// The smallest and largest throughput ratio over the rows.
    pub fn ratio_range(&self) -> (f64, f64) {
        let ratios = self.rows.iter().map(Comparison::ratio);
        (ratios.clone().fold(f64::INFINITY, f64::min), ratios.fold(0.0, f64::max))
    }

    /// The row of `batch` sequences of length `n`, with or without the look-ahead mask.
    ///
    /// # Panics
    /// If that shape was not measured.
    pub fn row(&self, batch: usize, n: usize, causal: bool) -> &Comparison {
        self.rows
            .iter()
            .find(|r| (r.batch, r.n, r.causal) == (batch, n, causal))
            .unwrap_or_else(|| panic!("batch {batch}, n = {n}, causal {causal}: not measured"))
    }
}

/// The comparison run of the AVX2-only machine, where the fast kernel runs its AVX2 path.
pub const AVX2_MACHINE: &str = "amd-epyc-avx2";
/// The comparison run of the AVX-512 machine, on its widest path.
pub const AVX512_MACHINE: &str = "amd-epyc-avx512";
/// The same AVX-512 machine with the fast kernel forced onto its AVX2 path (`--isa avx2`).
pub const AVX512_MACHINE_AVX2_PATH: &str = "amd-epyc-avx512-avx2-path";

/// The comparison run of the Intel Xeon with AVX-512, on its widest path.
pub const INTEL_XEON: &str = "intel-xeon-processor-avx512";
/// The same Intel Xeon with the fast kernel forced onto its AVX2 path.
pub const INTEL_XEON_AVX2_PATH: &str = "intel-xeon-processor-avx512-avx2-path";

/// The committed comparison run `measurements/pytorch/{name}.json`: one file per machine, and per
/// path where one was forced (`compare_pytorch.py` names them).
pub fn pytorch_run(name: &str) -> PyTorchResults {
    load(&format!("measurements/pytorch/{name}.json"))
}

/// Every committed comparison run with its name, sorted by name.
pub fn pytorch_runs() -> Vec<(String, PyTorchResults)> {
    json_names("measurements/pytorch", "compare_pytorch.py writes it")
        .into_iter()
        .map(|name| (name.clone(), pytorch_run(&name)))
        .collect()
}

/// The page's comparison tables: one per committed run, each under the machine it ran on.
pub fn pytorch_tables() -> String {
    pytorch_runs().iter().map(|(_, run)| run.table()).collect::<Vec<_>>().join("\n")
}

impl PyTorchResults {
    /// The page's comparison table, with the ratios.
    pub fn table(&self) -> String {
        let spread = self.rows.iter().all(|r| r.spread().is_some());
        let mut out = format!(
            "**{}**: the fast kernel's {} path; PyTorch with ATen at its {} vector level\n\n",
            self.machine.split(", Python").next().unwrap_or(&self.machine),
            self.isa.name(),
            self.torch_isa
        );
        out += "| batch × heads | n | mask | PyTorch SDPA | tiled, fast | fast / SDPA throughput |";
        out += if spread { " spread, SDPA / fast |" } else { "" };
        out +=
            " PyTorch naive | chapter 1 dense | fast vs chapter 1 |\n|---|---:|---|---:|---:|---:|";
        out += if spread { "---:|" } else { "" };
        out += "---:|---:|---:|";
        let dash = || String::from("–");
        for r in &self.rows {
            let naive = r.torch_naive_s.map_or_else(dash, millis);
            let dense = r.dense_s.map_or_else(dash, millis);
            let vs_dense = r.dense_s.map_or_else(dash, |d| format!("{:.1}×", d / r.fast_s));
            let spread = match r.spread().filter(|_| spread) {
                Some((sdpa, fast)) => format!(" {:.0} % / {:.0} % |", 100.0 * sdpa, 100.0 * fast),
                None => String::new(),
            };
            out += &format!(
                "\n| {} × {} | {} | {} | {} | {} | {:.2}× |{spread} {naive} | {dense} | {vs_dense} |",
                r.batch,
                super::HEADS,
                r.n,
                if r.causal { "causal" } else { "none" },
                millis(r.torch_sdpa_s),
                millis(r.fast_s),
                r.ratio()
            );
        }
        out + &format!(
            "\n\n{}; PyTorch {} (ATen's {} level, {} threads); the fast kernel's {} path, {} threads; \
             each time the best of {} alternating rounds{}.\n",
            self.machine,
            self.torch_version,
            self.torch_isa,
            self.threads,
            self.isa.name(),
            self.fast_threads,
            self.rounds,
            if spread {
                "; the spread is how much slower the slowest round's best call was"
            } else {
                " (this run did not record each round, so it gives no spread)"
            }
        )
    }
}

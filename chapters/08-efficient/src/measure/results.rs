//! The measured numbers the book shows: written by `cargo xtask bench` (criterion's times, the
//! peak memory of one process per point) and by `compare/compare_pytorch.py`, committed in
//! `measurements/`, and turned into the page's tables and plots by the functions here.

use serde::{Deserialize, Serialize};

use crate::fast::Isa;
use crate::measure::breakdown::Breakdown;
use crate::measure::method::Method;

/// What this chapter set out to reach, stated before measuring; the page compares each
/// measurement with its goal, and `tests/measurements.rs` checks which are met.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Goals {
    /// the fast tiled kernel against chapter 1's dense attention at n = 2048, at least
    pub vs_chapter1: f64,
    /// the fast tiled kernel's throughput against PyTorch's SDPA, at least
    pub vs_pytorch: f64,
    /// the throughput against PyTorch's SDPA hoped for beyond that
    pub vs_pytorch_stretch: f64,
    /// the fast sliding window against the same band as a mask at n = 16,384, at least
    pub window_vs_mask: f64,
    /// peak memory of the fast kernel over its inputs, output and tiles, at most
    pub memory_ratio: f64,
}

/// The chapter's goals.
pub const GOALS: Goals = Goals {
    vs_chapter1: 3.0,
    vs_pytorch: 1.0,
    vs_pytorch_stretch: 1.2,
    window_vs_mask: 10.0,
    memory_ratio: 1.2,
};

/// One method at one length.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    pub method: String,
    pub n: usize,
    /// criterion's mean time of one call
    pub seconds: f64,
}

/// The memory of one process that ran one method once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    pub method: String,
    pub n: usize,
    /// peak resident memory of the process (`VmHWM`)
    pub peak_bytes: u64,
    /// resident memory before the inputs were made
    pub base_bytes: u64,
    /// queries, keys, values and the output
    pub data_bytes: u64,
    /// the threads' scratch: packed keys and values, a strip of scores, and the rows' m and ℓ
    pub scratch_bytes: u64,
}

impl Memory {
    /// What the method needed beyond the process's start: `peak - base`.
    pub fn used(&self) -> u64 {
        self.peak_bytes.saturating_sub(self.base_bytes)
    }

    /// `used / (data + scratch)`: 1.0 means nothing beyond inputs, output and tiles.
    pub fn ratio(&self) -> f64 {
        self.used() as f64 / (self.data_bytes + self.scratch_bytes) as f64
    }
}

/// Everything `cargo xtask bench` measured, and where.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// CPU model, cores, rustc
    pub machine: String,
    pub times: Vec<Timing>,
    pub memory: Vec<Memory>,
    /// the fast kernel's pieces, on one thread
    pub breakdown: Breakdown,
}

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

/// The committed results of `cargo xtask bench`.
pub fn measured() -> Measured {
    load("measurements/results.json")
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

/// The names (without `.json`) of the JSON files in the crate's folder `rel`, sorted.
fn json_names(rel: &str, writer: &str) -> Vec<String> {
    let dir = format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}; {writer}"))
        .map(|entry| entry.expect("a directory entry").file_name().to_string_lossy().into_owned())
        .filter_map(|f| f.strip_suffix(".json").map(str::to_owned))
        .collect();
    names.sort();
    names
}

/// The committed limits of one machine, `measurements/limits/{name}.json` (`--example limits`).
pub fn limits_run(name: &str) -> crate::measure::Limits {
    load(&format!("measurements/limits/{name}.json"))
}

/// The page's limits tables, `measurements/limits.md`: one per machine in `measurements/limits/`.
pub fn limits_tables() -> String {
    json_names("measurements/limits", "`--example limits -- --save NAME` writes it")
        .iter()
        .map(|name| limits_run(name).table())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The page's comparison tables: one per committed run, each under the machine it ran on.
pub fn pytorch_tables() -> String {
    pytorch_runs().iter().map(|(_, run)| run.table()).collect::<Vec<_>>().join("\n")
}

fn load<T: for<'de> Deserialize<'de>>(rel: &str) -> T {
    let path = format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}; `cargo xtask bench` writes it"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

impl Measured {
    /// The time of `method` at `n`, if measured.
    pub fn time(&self, method: Method, n: usize) -> Option<f64> {
        self.times.iter().find(|t| t.method == method.id() && t.n == n).map(|t| t.seconds)
    }

    /// The memory of `method` at `n`, if measured.
    pub fn memory_of(&self, method: Method, n: usize) -> Option<&Memory> {
        self.memory.iter().find(|m| m.method == method.id() && m.n == n)
    }

    /// The least-squares slope of `log(time)` against `log(n)` over the measured lengths: 1 for
    /// linear growth, 2 for quadratic.
    pub fn slope(&self, method: Method) -> f64 {
        let pts: Vec<(f64, f64)> = self
            .times
            .iter()
            .filter(|t| t.method == method.id())
            .map(|t| (t.n as f64, t.seconds))
            .collect();
        support::fit::loglog_slope(&pts)
    }

    /// The page's time table: one row per method, one column per length, in milliseconds.
    pub fn time_table(&self) -> String {
        let mut lengths: Vec<usize> = self.times.iter().map(|t| t.n).collect();
        lengths.sort_unstable();
        lengths.dedup();
        let mut out = String::from("| milliseconds |");
        for n in &lengths {
            out += &format!(" n = {n} |");
        }
        out += "\n|---|";
        out += &"---:|".repeat(lengths.len());
        for m in Method::ALL {
            out += &format!("\n| {} |", m.name());
            for &n in &lengths {
                out += &match self.time(m, n) {
                    Some(s) => format!(" {} |", millis(s).trim_end_matches(" ms")),
                    None => " |".to_string(),
                };
            }
        }
        out + "\n"
    }

    /// The page's memory table.
    pub fn memory_table(&self) -> String {
        let mib = |b: u64| format!("{:.1}", b as f64 / (1u64 << 20) as f64);
        let mut out = String::from(
            "| method | n | peak RSS − start (MiB) | inputs + output (MiB) | tiles (MiB) | ratio |\n|---|---:|---:|---:|---:|---:|",
        );
        for m in &self.memory {
            let name = Method::from_id(&m.method).map_or(m.method.as_str(), |x| x.name());
            out += &format!(
                "\n| {name} | {} | {} | {} | {} | {:.2} |",
                m.n,
                mib(m.used()),
                mib(m.data_bytes),
                mib(m.scratch_bytes),
                m.ratio()
            );
        }
        out + "\n"
    }
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

/// Seconds as milliseconds with three significant digits (`"71.2 ms"`, `"1,050 ms"`).
pub fn millis(s: f64) -> String {
    let ms = s * 1e3;
    if ms >= 1000.0 {
        let whole = ms.round() as u64;
        format!("{},{:03} ms", whole / 1000, whole % 1000)
    } else if ms >= 100.0 {
        format!("{ms:.0} ms")
    } else if ms >= 10.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{ms:.2} ms")
    }
}

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
    /// the threads' score tiles
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
}

impl Comparison {
    /// The fast kernel's throughput over PyTorch SDPA's: above 1 is faster than PyTorch.
    pub fn ratio(&self) -> f64 {
        self.torch_sdpa_s / self.fast_s
    }
}

/// The comparison script's output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PyTorchResults {
    /// CPU model, cores, the vector extensions it has, Python
    pub machine: String,
    pub torch_version: String,
    /// the instruction set PyTorch's CPU kernels dispatched to (`torch.backends.cpu.get_cpu_capability()`)
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

/// The committed results of the PyTorch comparison.
pub fn pytorch_results() -> PyTorchResults {
    load("measurements/pytorch.json")
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
        let mut out = String::from(
            "| batch × heads | n | mask | PyTorch SDPA | tiled, fast | fast / SDPA throughput | PyTorch naive | chapter 1 dense | fast vs chapter 1 |\n|---|---:|---|---:|---:|---:|---:|---:|---:|",
        );
        let dash = || String::from("–");
        for r in &self.rows {
            let naive = r.torch_naive_s.map_or_else(dash, millis);
            let dense = r.dense_s.map_or_else(dash, millis);
            let vs_dense = r.dense_s.map_or_else(dash, |d| format!("{:.1}×", d / r.fast_s));
            out += &format!(
                "\n| {} × {} | {} | {} | {} | {} | {:.2}× | {naive} | {dense} | {vs_dense} |",
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
            "\n\n{}; PyTorch {} ({} kernels, {} threads); the fast kernel's {} path, {} threads; \
             each time the best of {} alternating rounds.\n",
            self.machine,
            self.torch_version,
            self.torch_isa,
            self.threads,
            self.isa.name(),
            self.fast_threads,
            self.rounds
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

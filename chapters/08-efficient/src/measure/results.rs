//! The measured numbers the book shows: written by `cargo xtask bench` (criterion's times, the
//! peak memory of one process per point) and by `--example limits`, committed in
//! `measurements/`, and turned into the page's tables and plots by the functions here. The
//! PyTorch comparison's runs are read in `comparison.rs`.

use serde::{Deserialize, Serialize};

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

/// The committed results of `cargo xtask bench`.
pub fn measured() -> Measured {
    load("measurements/results.json")
}

/// The names (without `.json`) of the JSON files in the crate's folder `rel`, sorted.
pub(crate) fn json_names(rel: &str, writer: &str) -> Vec<String> {
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

pub(crate) fn load<T: for<'de> Deserialize<'de>>(rel: &str) -> T {
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

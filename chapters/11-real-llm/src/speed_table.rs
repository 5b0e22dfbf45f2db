//! The committed speed comparisons (`measurements/speed/<machine>.json`, written by
//! `compare/compare_speed.py`): read, checked, and turned into the page's tables. A file written
//! before a field was recorded still reads; its table says what it lacks.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use support::rounds::Summary;
use support::saved::read_json_folder;

/// One part of a decode step, from a profiled pass of its own.
#[derive(Clone, Debug, Deserialize)]
pub struct Part {
    pub part: String,
    pub ms_per_token: f64,
    /// the weights it reads per token
    pub weight_bytes: u64,
}

impl Part {
    /// The rate it reads its weights at, in bytes per second; `None` if it reads none.
    pub fn read_rate(&self) -> Option<f64> {
        (self.weight_bytes > 0).then(|| self.weight_bytes as f64 / (self.ms_per_token * 1e-3))
    }
}

/// One program's rounds.
#[derive(Clone, Debug, Deserialize)]
pub struct Program {
    pub program: String,
    pub prefill_tokens_per_s: f64,
    pub decode_tokens_per_s: f64,
    pub prefill_rounds: Vec<f64>,
    pub decode_rounds: Vec<f64>,
    /// the weights' bytes read per generated token, for this chapter's paths
    pub weight_bytes_per_token: Option<u64>,
    pub tokens: Vec<usize>,
    /// whether every round generated `tokens`; not recorded in the first files
    #[serde(default)]
    pub tokens_equal_every_round: Option<bool>,
    pub versions: BTreeMap<String, String>,
    /// this chapter's decode paths only: the fastest of the profiled passes
    #[serde(default)]
    pub profile: Option<Vec<Part>>,
    /// how many profiled passes `profile` is the fastest of; not recorded in the first files,
    /// which kept the pass that followed the round that decoded fastest
    #[serde(default)]
    pub profile_passes: Option<usize>,
    /// llama.cpp only: [`DEFAULTS`] or [`NO_EXTRA_BUFFERS`]; not recorded in the first files
    #[serde(default)]
    pub configuration: Option<String>,
    /// why llama.cpp's defaults did not run, where they did not
    #[serde(default)]
    pub configuration_why: Option<String>,
}

impl Program {
    /// The decode rounds' best, median and slowest.
    pub fn decode(&self) -> Summary {
        Summary::of(&self.decode_rounds).expect("checked: positive rounds")
    }

    /// The prefill rounds' best, median and slowest.
    pub fn prefill(&self) -> Summary {
        Summary::of(&self.prefill_rounds).expect("checked: positive rounds")
    }
}

/// One reader of the memory bandwidth and the best rate it reached.
#[derive(Clone, Debug, Deserialize)]
pub struct Reader {
    pub reader: String,
    pub bytes_per_s: f64,
}

/// One machine's comparison.
#[derive(Clone, Debug, Deserialize)]
pub struct SpeedRun {
    /// `support::machine::describe()`: CPU, cores, instruction sets
    pub machine: String,
    /// the instruction set this chapter's kernels ran on
    pub isa: String,
    pub threads: usize,
    pub prompt_ids: Vec<usize>,
    pub new_tokens: usize,
    /// the best of [`Self::bandwidth_readers`] (the first files: one reader, a sum)
    pub read_bandwidth_bytes_per_s: f64,
    /// each reader's best; not recorded in the first files
    #[serde(default)]
    pub bandwidth_readers: Option<Vec<Reader>>,
    /// the decode path's software prefetch distance in the main rows; not recorded in the first
    /// files (their code asked 1,024 bytes ahead)
    #[serde(default)]
    pub prefetch_bytes: Option<usize>,
    pub rounds: usize,
    pub programs: Vec<Program>,
}

/// llama.cpp's configuration as a user gets it.
pub const DEFAULTS: &str = "defaults";
/// llama.cpp's configuration where its defaults fail: its extra buffer types off.
pub const NO_EXTRA_BUFFERS: &str = "no-extra-buffer-types";

/// The programs every run has, in the table's order, and what their weights are.
pub const PROGRAMS: [(&str, &str); 5] = [
    ("quantized", "this chapter, the file's Q4_1/Q8_0 blocks"),
    ("f32", "this chapter, dequantized to f32"),
    ("chapter 10", "chapter 10's model (dfdx), f32"),
    ("transformers", "Hugging Face transformers, PyTorch eager, f32"),
    ("llama.cpp", "llama.cpp, the file's blocks"),
];

/// The programs the later runs add, shown after the others where present.
pub const WITHOUT_PREFETCH: [(&str, &str); 2] = [
    ("quantized, prefetch off", "this chapter, the file's blocks, software prefetch off"),
    ("f32, prefetch off", "this chapter, f32, software prefetch off"),
];

impl SpeedRun {
    /// A program's rounds.
    ///
    /// # Panics
    /// If the run does not have it.
    pub fn program(&self, name: &str) -> &Program {
        self.programs.iter().find(|p| p.program == name).unwrap_or_else(|| panic!("no {name}"))
    }

    /// What a run must say to be shown: its machine, 2 threads, every program with every round
    /// (positive rates), each best the largest of its rounds, every program's tokens counted,
    /// a profile of each decode path, llama.cpp's configuration one of the two (and why, where
    /// its defaults did not run), and the bandwidth the best of its readers.
    pub fn check(&self) -> Result<(), String> {
        support::machine::check_line(&self.machine)?;
        if self.threads != 2 {
            return Err(format!("{} threads, not 2", self.threads));
        }
        let optional = WITHOUT_PREFETCH.iter().filter(|(n, _)| self.has(n));
        for (name, _) in PROGRAMS.iter().chain(optional) {
            let p = self.programs.iter().find(|p| p.program == *name);
            let p = p.ok_or_else(|| format!("{name} is missing"))?;
            if p.prefill_rounds.len() != self.rounds || p.decode_rounds.len() != self.rounds {
                return Err(format!("{name} does not have {} rounds", self.rounds));
            }
            let (Some(prefill), Some(decode)) =
                (Summary::of(&p.prefill_rounds), Summary::of(&p.decode_rounds))
            else {
                return Err(format!("{name} has a round that is not a positive rate"));
            };
            if (decode.best - p.decode_tokens_per_s).abs() > 1e-3
                || (prefill.best - p.prefill_tokens_per_s).abs() > 1e-3
            {
                return Err(format!("{name}'s best is not the best of its rounds"));
            }
            if name.starts_with("quantized") || name.starts_with("f32") {
                if p.profile.is_none() {
                    return Err(format!("{name} has no profile"));
                }
                if p.profile_passes.is_some_and(|n| n != self.rounds) {
                    return Err(format!("{name}'s profile is not of one pass per round"));
                }
            }
            if p.tokens.len() != self.new_tokens {
                return Err(format!("{name} generated {} tokens", p.tokens.len()));
            }
        }
        let llama = self.program("llama.cpp");
        match (llama.configuration.as_deref(), &llama.configuration_why) {
            (None | Some(DEFAULTS), _) => {}
            (Some(NO_EXTRA_BUFFERS), Some(_)) => {}
            (Some(NO_EXTRA_BUFFERS), None) => {
                return Err(
                    "llama.cpp ran without its defaults and the file does not say why".into()
                )
            }
            (Some(other), _) => {
                return Err(format!("llama.cpp's configuration {other:?} is unknown"))
            }
        }
        if let Some(readers) = &self.bandwidth_readers {
            let best = readers.iter().map(|r| r.bytes_per_s).fold(0.0, f64::max);
            if (best - self.read_bandwidth_bytes_per_s).abs() > 1.0 {
                return Err("the bandwidth is not the best of its readers".into());
            }
        }
        Ok(())
    }

    /// Whether the run has `name`'s rounds.
    pub fn has(&self, name: &str) -> bool {
        self.programs.iter().any(|p| p.program == name)
    }

    /// `program`'s best decode speed over `other`'s.
    pub fn decode_ratio(&self, program: &str, other: &str) -> f64 {
        self.program(program).decode().best / self.program(other).decode().best
    }

    /// `program`'s median decode speed over `other`'s.
    pub fn decode_median_ratio(&self, program: &str, other: &str) -> f64 {
        self.program(program).decode().median / self.program(other).decode().median
    }

    /// The fastest rate at which a part of either decode path's profile read its weights.
    pub fn fastest_part_rate(&self) -> f64 {
        (self.programs.iter())
            .filter(|p| p.program == "quantized" || p.program == "f32")
            .flat_map(|p| p.profile.iter().flatten())
            .filter_map(Part::read_rate)
            .fold(0.0, f64::max)
    }

    /// Whether a part of the profile read faster than the bandwidth the run measured: then that
    /// bandwidth is no ceiling, and the page must call any bound drawn from it an estimate.
    pub fn profile_beats_bandwidth(&self) -> bool {
        self.fastest_part_rate() > self.read_bandwidth_bytes_per_s
    }

    /// The llama.cpp row's name, with the configuration it ran in.
    pub fn llama_cpp_label(&self) -> String {
        let p = self.program("llama.cpp");
        match (p.configuration.as_deref(), p.configuration_why.as_deref()) {
            (Some(DEFAULTS), _) => "llama.cpp, the file's blocks, its defaults".into(),
            (Some(_), why) => {
                let why = why.unwrap_or("").split(':').next().unwrap_or("");
                format!(
                    "llama.cpp, the file's blocks, extra buffer types off (its defaults: {why})"
                )
            }
            (None, _) => "llama.cpp, the file's blocks (configuration not recorded)".into(),
        }
    }

    /// How the bandwidth was measured, for the table's heading.
    fn bandwidth_line(&self) -> String {
        let gb = |b: f64| format!("{:.1}", b / 1e9);
        let mut line = format!("Memory bandwidth {} GB/s", gb(self.read_bandwidth_bytes_per_s));
        line += &match &self.bandwidth_readers {
            Some(readers) => {
                let each: Vec<String> =
                    readers.iter().map(|r| format!("{} {}", r.reader, gb(r.bytes_per_s))).collect();
                format!(
                    ", the best of {} readers over 1 GiB ({} GB/s)",
                    readers.len(),
                    each.join(", ")
                )
            }
            None => ", from one reader, a sum of 1 GiB on every thread".into(),
        };
        if self.profile_beats_bandwidth() {
            line += &format!(
                "; a part of the profile reads at {} GB/s, faster: the bandwidth is an estimate, not a ceiling",
                gb(self.fastest_part_rate())
            );
        }
        line + "."
    }

    /// What this run's file does not record, as a sentence; empty if it records everything.
    fn not_recorded(&self) -> String {
        let mut missing = Vec::new();
        if self.program("llama.cpp").configuration.is_none() {
            missing.push("llama.cpp's configuration");
        }
        if self.bandwidth_readers.is_none() {
            missing.push("bandwidth readers other than the sum");
        }
        if WITHOUT_PREFETCH.iter().any(|(n, _)| !self.has(n)) {
            missing.push("the decode path without its software prefetch");
        }
        if self.program("quantized").profile_passes.is_none() {
            missing.push("more than one profiled pass");
        }
        match missing.is_empty() {
            true => String::new(),
            false => format!("\nNot recorded in this run: {}.\n", missing.join(", ")),
        }
    }

    // ANCHOR: table
    /// The page's table for this machine: each program's best, median and spread, and its
    /// ratios to transformers by best and by median.
    pub fn table(&self) -> String {
        let mut out = format!(
            "{}; {} threads each, a {}-token prompt then {} greedy tokens, {}: the best, the median and the slowest–fastest spread of each. {}\n\n",
            self.machine, self.threads, self.prompt_ids.len(), self.new_tokens,
            match self.rounds {
                1 => "1 round".to_string(),
                n => format!("{n} alternating rounds"),
            },
            self.bandwidth_line()
        );
        out += "| program | prefill, tokens/s, best | decode, tokens/s, best | median | slowest–fastest | vs transformers, best | by median | weights read per token | bandwidth used at best |\n";
        out += "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
        let llama = self.llama_cpp_label();
        let rows = PROGRAMS.iter().chain(WITHOUT_PREFETCH.iter().filter(|(n, _)| self.has(n)));
        for &(name, what) in rows {
            let what = if name == "llama.cpp" { llama.as_str() } else { what };
            let (p, d) = (self.program(name), self.program(name).decode());
            let (bytes, used) = match p.weight_bytes_per_token {
                Some(b) => (
                    format!("{:.1} MB", b as f64 / 1e6),
                    format!("{:.0} %", 100.0 * b as f64 * d.best / self.read_bandwidth_bytes_per_s),
                ),
                None => ("".into(), "".into()),
            };
            out += &format!(
                "| {what} | {:.1} | {:.1} | {:.1} | {:.1}–{:.1} | {:.2}× | {:.2}× | {bytes} | {used} |\n",
                p.prefill().best,
                d.best,
                d.median,
                d.slowest,
                d.best,
                self.decode_ratio(name, "transformers"),
                self.decode_median_ratio(name, "transformers"),
            );
        }
        out + &self.not_recorded()
    }
    // ANCHOR_END: table

    /// Where one decode step's time goes on this chapter's two paths, and how fast each part
    /// reads its weights.
    pub fn profile_table(&self) -> String {
        let (q, f) = (self.program("quantized"), self.program("f32"));
        let (qp, fp) =
            (q.profile.as_ref().expect("a profile"), f.profile.as_ref().expect("a profile"));
        let which = match q.profile_passes {
            Some(1) => "one profiled pass of each path, after the round's timed generation".into(),
            Some(n) => format!("the fastest of {n} profiled passes of each path, one after each round's timed generation"),
            None => "the profiled pass that followed each path's fastest timed round".into(),
        };
        let mut out = format!(
            "{}: {which}; a pass of its own, each part timed over the {} steps after the first token.\n\n",
            self.machine,
            self.new_tokens - 1
        );
        out += "| part of a decode step | quantized, ms | its weights | read at | f32, ms | its weights | read at |\n|---|---:|---:|---:|---:|---:|---:|\n";
        let cells = |p: &Part| {
            let rate = p.read_rate().map_or(String::new(), |r| format!("{:.1} GB/s", r / 1e9));
            format!("{:.2} | {:.1} MB | {rate}", p.ms_per_token, p.weight_bytes as f64 / 1e6)
        };
        for (a, b) in qp.iter().zip(fp) {
            out += &format!("| {} | {} | {} |\n", a.part, cells(a), cells(b));
        }
        let total = |p: &[Part]| p.iter().map(|x| x.ms_per_token).sum::<f64>();
        out += &format!("| whole step | {:.2} | | | {:.2} | | |\n", total(qp), total(fp));
        out
    }
}

/// Where the comparisons are kept.
pub fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("measurements").join("speed")
}

/// Every committed comparison, by file name, sorted.
///
/// # Panics
/// If a file cannot be read as a [`SpeedRun`]; the message names it and the script that writes it.
pub fn committed() -> Vec<(String, SpeedRun)> {
    let writer = "python3 chapters/11-real-llm/compare/compare_speed.py";
    read_json_folder(folder(), "a speed comparison", writer).unwrap_or_else(|e| panic!("{e}"))
}

/// Every machine's speed table, the file `measurements/speed.md` holds.
pub fn tables() -> String {
    committed().into_iter().map(|(_, run)| run.table()).collect::<Vec<_>>().join("\n")
}

/// Every machine's decode-step profile, the file `measurements/speed-profile.md` holds.
pub fn profiles() -> String {
    committed().into_iter().map(|(_, run)| run.profile_table()).collect::<Vec<_>>().join("\n")
}

//! The committed speed comparisons (`measurements/speed/<machine>.json`, written by
//! `compare/compare_speed.py`): read, checked, and turned into the page's table.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use support::saved::read_json_folder;

/// One part of a decode step, in the round that decoded fastest.
#[derive(Clone, Debug, Deserialize)]
pub struct Part {
    pub part: String,
    pub ms_per_token: f64,
    /// the weights it reads per token
    pub weight_bytes: u64,
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
    pub versions: BTreeMap<String, String>,
    /// this chapter's decode paths only
    #[serde(default)]
    pub profile: Option<Vec<Part>>,
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
    pub read_bandwidth_bytes_per_s: f64,
    pub rounds: usize,
    pub programs: Vec<Program>,
}

/// The programs, in the table's order, and what their weights are.
pub const PROGRAMS: [(&str, &str); 5] = [
    ("quantized", "this chapter, the file's Q4_1/Q8_0 blocks"),
    ("f32", "this chapter, dequantized to f32"),
    ("chapter 10", "chapter 10's model (dfdx), f32"),
    ("transformers", "Hugging Face transformers, PyTorch eager, f32"),
    ("llama.cpp", "llama.cpp, the file's blocks"),
];

impl SpeedRun {
    /// A program's rounds.
    ///
    /// # Panics
    /// If the run does not have it.
    pub fn program(&self, name: &str) -> &Program {
        self.programs.iter().find(|p| p.program == name).unwrap_or_else(|| panic!("no {name}"))
    }

    /// What a run must say to be shown: its machine, 2 threads, every program with every round,
    /// each best the largest of its rounds, every program's tokens counted.
    pub fn check(&self) -> Result<(), String> {
        support::machine::check_line(&self.machine)?;
        if self.threads != 2 {
            return Err(format!("{} threads, not 2", self.threads));
        }
        for (name, _) in PROGRAMS {
            let p = self.programs.iter().find(|p| p.program == name);
            let p = p.ok_or_else(|| format!("{name} is missing"))?;
            let best = |rounds: &[f64]| rounds.iter().copied().fold(0.0, f64::max);
            if p.prefill_rounds.len() != self.rounds || p.decode_rounds.len() != self.rounds {
                return Err(format!("{name} does not have {} rounds", self.rounds));
            }
            if (best(&p.decode_rounds) - p.decode_tokens_per_s).abs() > 1e-3
                || (best(&p.prefill_rounds) - p.prefill_tokens_per_s).abs() > 1e-3
            {
                return Err(format!("{name}'s best is not the best of its rounds"));
            }
            if matches!(name, "quantized" | "f32") && p.profile.is_none() {
                return Err(format!("{name} has no profile"));
            }
            if p.tokens.len() != self.new_tokens {
                return Err(format!("{name} generated {} tokens", p.tokens.len()));
            }
        }
        Ok(())
    }

    /// `program`'s decode speed over `other`'s.
    pub fn decode_ratio(&self, program: &str, other: &str) -> f64 {
        self.program(program).decode_tokens_per_s / self.program(other).decode_tokens_per_s
    }

    // ANCHOR: table
    /// The page's table for this machine.
    pub fn table(&self) -> String {
        let mut out = format!(
            "{}; {} threads each, a {}-token prompt then {} greedy tokens, best of {} alternating rounds; memory read bandwidth {:.1} GB/s.\n\n",
            self.machine, self.threads, self.prompt_ids.len(), self.new_tokens, self.rounds,
            self.read_bandwidth_bytes_per_s / 1e9
        );
        out += "| program | prefill, tokens/s | decode, tokens/s | decode vs transformers | weights read per token | bandwidth used |\n";
        out += "|---|---:|---:|---:|---:|---:|\n";
        for (name, what) in PROGRAMS {
            let p = self.program(name);
            let (bytes, used) = match p.weight_bytes_per_token {
                Some(b) => (
                    format!("{:.1} MB", b as f64 / 1e6),
                    format!(
                        "{:.0} %",
                        100.0 * b as f64 * p.decode_tokens_per_s / self.read_bandwidth_bytes_per_s
                    ),
                ),
                None => ("".into(), "".into()),
            };
            out += &format!(
                "| {what} | {:.1} | {:.1} | {:.2}× | {bytes} | {used} |\n",
                p.prefill_tokens_per_s,
                p.decode_tokens_per_s,
                self.decode_ratio(name, "transformers")
            );
        }
        out
    }
    // ANCHOR_END: table

    /// Where one decode step's time goes on this chapter's two paths, and how fast each part
    /// reads its weights.
    pub fn profile_table(&self) -> String {
        let (q, f) = (self.program("quantized"), self.program("f32"));
        let (qp, fp) =
            (q.profile.as_ref().expect("a profile"), f.profile.as_ref().expect("a profile"));
        let mut out = String::from(
            "| part of a decode step | quantized, ms | its weights | read at | f32, ms | its weights | read at |\n|---|---:|---:|---:|---:|---:|---:|\n",
        );
        let cells = |p: &Part| {
            let rate = match p.weight_bytes {
                0 => String::new(),
                b => format!("{:.1} GB/s", b as f64 / (p.ms_per_token * 1e-3) / 1e9),
            };
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

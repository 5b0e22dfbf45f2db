//! The committed speed comparisons (`measurements/speed/<machine>.json`, written by
//! `compare/compare_speed.py`): read, checked, and turned into the page's table.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use support::saved::read_json_folder;

/// One program's rounds.
#[derive(Clone, Debug, Deserialize)]
pub struct Program {
    pub program: String,
    /// the best round
    pub sentences_per_s: f64,
    pub rounds: Vec<f64>,
    #[serde(default)]
    pub versions: BTreeMap<String, String>,
}

/// One machine's comparison.
#[derive(Clone, Debug, Deserialize)]
pub struct SpeedRun {
    /// `support::machine::describe()`: CPU, cores, instruction sets
    pub machine: String,
    /// the instruction set the fast path ran on
    pub isa: String,
    pub threads: usize,
    pub sentences: usize,
    pub tokens: usize,
    pub batch: usize,
    pub rounds: usize,
    pub programs: Vec<Program>,
}

/// The programs, in the table's order, with what each runs.
pub const PROGRAMS: [(&str, &str); 3] = [
    ("fast path", "this chapter's fast path: no padding, chapter 8's kernels"),
    ("chapter 5's blocks (dfdx)", "chapter 5's blocks and chapter 6's mask, on dfdx"),
    ("sentence-transformers", "sentence-transformers on PyTorch"),
];

/// The program the ratios are taken against.
pub const REFERENCE: &str = "sentence-transformers";

impl SpeedRun {
    /// A program's rounds.
    ///
    /// # Panics
    /// If the run does not have it.
    pub fn program(&self, name: &str) -> &Program {
        self.programs.iter().find(|p| p.program == name).unwrap_or_else(|| panic!("no {name}"))
    }

    /// A program's best rate over the reference's.
    pub fn ratio(&self, name: &str) -> f64 {
        self.program(name).sentences_per_s / self.program(REFERENCE).sentences_per_s
    }

    /// What a run must say to be shown: its machine, 2 threads, batches of 32, every program
    /// with every round, each best the largest of its rounds.
    pub fn check(&self) -> Result<(), String> {
        support::machine::check_line(&self.machine)?;
        if (self.threads, self.batch, self.sentences) != (2, 32, 256) {
            return Err("not 256 sentences in batches of 32 on 2 threads".into());
        }
        for (name, _) in PROGRAMS {
            let p = self.programs.iter().find(|p| p.program == name);
            let p = p.ok_or(format!("no rounds of {name}"))?;
            if p.rounds.len() != self.rounds {
                return Err(format!("{name}: {} rounds, not {}", p.rounds.len(), self.rounds));
            }
            let best = p.rounds.iter().copied().fold(f64::MIN, f64::max);
            if (best - p.sentences_per_s).abs() > 1e-3 * best {
                return Err(format!(
                    "{name}: best {} is not its best round {best}",
                    p.sentences_per_s
                ));
            }
        }
        Ok(())
    }

    /// The table for this run.
    pub fn table(&self) -> String {
        let mut out = format!(
            "Measured on {}; {} sentences ({} tokens) in batches of {}, {} threads each, best of \
             {} alternating rounds; the fast path on {}.\n\n\
             | program | sentences/s | vs sentence-transformers | rounds |\n|---|---:|---:|---|\n",
            self.machine,
            self.sentences,
            self.tokens,
            self.batch,
            self.threads,
            self.rounds,
            self.isa
        );
        for (name, what) in PROGRAMS {
            let p = self.program(name);
            let rounds: Vec<String> = p.rounds.iter().map(|r| format!("{r:.1}")).collect();
            out += &format!(
                "| {what} | {:.1} | {:.2}× | {} |\n",
                p.sentences_per_s,
                self.ratio(name),
                rounds.join(", ")
            );
        }
        out
    }
}

/// `measurements/speed/`.
pub fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("measurements/speed")
}

/// Every committed run, by file name.
///
/// # Panics
/// If a file cannot be read as a [`SpeedRun`]; the message names it and the script that writes it.
pub fn committed() -> Vec<(String, SpeedRun)> {
    let writer = "python3 chapters/12-real-bert/compare/compare_speed.py";
    read_json_folder(folder(), "a speed comparison", writer).unwrap_or_else(|e| panic!("{e}"))
}

/// Every run's table, one after another: `measurements/speed.md`.
pub fn tables() -> String {
    committed().iter().map(|(_, run)| run.table()).collect::<Vec<_>>().join("\n")
}

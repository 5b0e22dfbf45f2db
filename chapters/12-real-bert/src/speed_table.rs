//! The committed speed comparisons (`measurements/speed/<machine>.json`, written by
//! `compare/compare_speed.py`): read, checked, and turned into the page's tables and the sentence
//! that sums them up across machines (best, median and round-by-round ratios).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use support::rounds::{paired_ratios, Summary};
use support::saved::read_json_folder;

/// One program's rounds.
#[derive(Clone, Debug, Deserialize)]
pub struct Program {
    pub program: String,
    /// the best round
    pub sentences_per_s: f64,
    /// every round's rate, in the order they ran
    pub rounds: Vec<f64>,
    /// the libraries it ran on (the first file recorded them for sentence-transformers only)
    #[serde(default)]
    pub versions: BTreeMap<String, String>,
}

impl Program {
    /// The rounds' best, median and slowest.
    ///
    /// # Panics
    /// If a round is not a positive rate ([`SpeedRun::check`] refuses such a file).
    pub fn summary(&self) -> Summary {
        Summary::of(&self.rounds)
            .unwrap_or_else(|| panic!("{}: a round is not a rate", self.program))
    }
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
    (FAST, "this chapter's fast path: no padding, chapter 8's kernels"),
    (BLOCKS, "chapter 5's blocks and chapter 6's mask, on dfdx"),
    (REFERENCE, "sentence-transformers on PyTorch"),
];

/// The fast path's name in the files.
pub const FAST: &str = "fast path";
/// Chapter 5's blocks' name in the files.
pub const BLOCKS: &str = "chapter 5's blocks (dfdx)";
/// The program the ratios are taken against.
pub const REFERENCE: &str = "sentence-transformers";
/// The fewest rounds a run may have: a median needs three.
pub const MIN_ROUNDS: usize = 3;

impl SpeedRun {
    /// A program's rounds.
    ///
    /// # Panics
    /// If the run does not have it.
    pub fn program(&self, name: &str) -> &Program {
        self.programs.iter().find(|p| p.program == name).unwrap_or_else(|| panic!("no {name}"))
    }

    /// A program's best rate over the reference's best.
    pub fn ratio(&self, name: &str) -> f64 {
        self.program(name).sentences_per_s / self.program(REFERENCE).sentences_per_s
    }

    /// A program's median rate over the reference's median.
    pub fn median_ratio(&self, name: &str) -> f64 {
        self.program(name).summary().median / self.program(REFERENCE).summary().median
    }

    /// Round by round, a program's rate over the reference's in the same round (the programs
    /// alternate, so each pair ran under the same conditions).
    pub fn round_ratios(&self, name: &str) -> Vec<f64> {
        paired_ratios(&self.program(name).rounds, &self.program(REFERENCE).rounds)
            .expect("checked: as many positive rounds as the reference")
    }

    /// What a run must say to be shown: its machine, 2 threads, batches of 32, every program
    /// with every round (at least [`MIN_ROUNDS`], each a positive rate), each best the largest
    /// of its rounds.
    pub fn check(&self) -> Result<(), String> {
        support::machine::check_line(&self.machine)?;
        if (self.threads, self.batch, self.sentences) != (2, 32, 256) {
            return Err("not 256 sentences in batches of 32 on 2 threads".into());
        }
        if self.rounds < MIN_ROUNDS {
            return Err(format!("{} rounds: a median needs at least {MIN_ROUNDS}", self.rounds));
        }
        for (name, _) in PROGRAMS {
            let p = self.programs.iter().find(|p| p.program == name);
            let p = p.ok_or(format!("no rounds of {name}"))?;
            if p.rounds.len() != self.rounds {
                return Err(format!("{name}: {} rounds, not {}", p.rounds.len(), self.rounds));
            }
            let summary =
                Summary::of(&p.rounds).ok_or(format!("{name}: a round is not a positive rate"))?;
            if (summary.best - p.sentences_per_s).abs() > 1e-3 * summary.best {
                return Err(format!(
                    "{name}: best {} is not its best round {}",
                    p.sentences_per_s, summary.best
                ));
            }
        }
        if self.program(REFERENCE).versions.is_empty() {
            return Err(format!("{REFERENCE}: no versions recorded"));
        }
        Ok(())
    }

    /// The libraries each program ran on, as recorded: `torch 2.15.0, ...`.
    pub fn versions(&self) -> String {
        let mut all = BTreeMap::new();
        for p in &self.programs {
            for (library, version) in &p.versions {
                all.insert(library.replace('_', "-"), version.clone());
            }
        }
        all.iter().map(|(l, v)| format!("{l} {v}")).collect::<Vec<_>>().join(", ")
    }

    /// The table for this run.
    pub fn table(&self) -> String {
        let mut out = format!(
            "Measured on {}, with {}; {} sentences ({} tokens) in batches of {}, {} threads each, \
             {} alternating rounds; the fast path on {}.\n\n\
             | program | sentences/s, best | median | slowest | best vs sentence-transformers' \
             best | median vs median |\n|---|---:|---:|---:|---:|---:|\n",
            self.machine,
            self.versions(),
            self.sentences,
            self.tokens,
            self.batch,
            self.threads,
            self.rounds,
            self.isa
        );
        for (name, what) in PROGRAMS {
            let s = self.program(name).summary();
            out += &format!(
                "| {what} | {:.1} | {:.1} | {:.1} | {:.2}× | {:.2}× |\n",
                s.best,
                s.median,
                s.slowest,
                self.ratio(name),
                self.median_ratio(name)
            );
        }
        let fast = Summary::of(&self.round_ratios(FAST)).expect("positive ratios");
        out += &format!(
            "\nRound by round, the fast path ran at {:.2}× to {:.2}× sentence-transformers' \
             speed in the same round.\n",
            fast.slowest, fast.best
        );
        out
    }
}

/// What the committed runs say together, for the page: the fast path's ratio to
/// sentence-transformers by best and by median round, across machines, and whether the chapter's
/// goal (at least 1.0×) holds in the medians and in every round.
pub fn summary(runs: &[(String, SpeedRun)]) -> String {
    let range = |values: Vec<f64>| {
        let s = Summary::of(&values).expect("positive ratios");
        if values.len() == 1 || format!("{:.2}", s.slowest) == format!("{:.2}", s.best) {
            format!("{:.2}×", s.best)
        } else {
            format!("{:.2}× to {:.2}×", s.slowest, s.best)
        }
    };
    let best = range(runs.iter().map(|(_, r)| r.ratio(FAST)).collect());
    let median = range(runs.iter().map(|(_, r)| r.median_ratio(FAST)).collect());
    let blocks = range(runs.iter().map(|(_, r)| r.median_ratio(BLOCKS)).collect());
    let rounds: Vec<f64> = runs.iter().flat_map(|(_, r)| r.round_ratios(FAST)).collect();
    let lowest = rounds.iter().copied().fold(f64::INFINITY, f64::min);
    let machines = match runs.len() {
        1 => "On the one machine measured".to_string(),
        n => format!("On the {n} machines measured"),
    };
    let medians_met = runs.iter().all(|(_, r)| r.median_ratio(FAST) >= 1.0);
    let verdict = if lowest >= 1.0 {
        "The goal, at least 1.0×, is met in every round.".to_string()
    } else if medians_met {
        format!(
            "The goal, at least 1.0×, is met by the medians, though not in every round (the \
             slowest pair of rounds gave {lowest:.2}×)."
        )
    } else {
        let short: Vec<&str> = (runs.iter())
            .filter(|(_, r)| r.median_ratio(FAST) < 1.0)
            .map(|(_, r)| r.machine.split(',').next().unwrap_or(""))
            .collect();
        format!("The goal, at least 1.0×, is not met by the median on {}.", short.join(" and "))
    };
    format!(
        "{machines}, the fast path's best round is {best} sentence-transformers' best, and its \
         median round {median} sentence-transformers' median. {verdict} Chapter 5's blocks on \
         dfdx reach {blocks} by the medians.\n"
    )
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

/// The committed runs' [`summary`]: `measurements/speed-summary.md`, which the page includes in
/// its speed section and its summary.
pub fn committed_summary() -> String {
    summary(&committed())
}

/// `measurements/speed.md` and `measurements/speed-summary.md`, with what each must hold.
pub fn generated_files() -> [(PathBuf, String); 2] {
    let dir = folder().parent().expect("measurements/").to_path_buf();
    [(dir.join("speed.md"), tables()), (dir.join("speed-summary.md"), committed_summary())]
}

//! The committed speed comparisons (`measurements/speed/<machine>.json`, written by
//! `compare/compare_speed.py`): read, checked, and turned into the page's table and the sentence
//! that sums it up. A program's speed is how many seconds of speech it transcribes per second
//! (`× real time`, the inverse of the real-time factor); the ratios are taken against
//! transformers.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use support::rounds::{paired_ratios, Summary};
use support::saved::read_json_folder;

/// One program's rounds.
#[derive(Clone, Debug, Deserialize)]
pub struct Program {
    pub program: String,
    /// the best round's seconds for the five clips
    pub seconds: f64,
    /// every round's seconds, in the order they ran
    pub rounds: Vec<f64>,
    #[serde(default)]
    pub versions: BTreeMap<String, String>,
    /// the fast path's best round, stage by stage (seconds)
    #[serde(default)]
    pub stages: BTreeMap<String, f64>,
    /// the tokens it wrote for each clip (the Python programs)
    #[serde(default)]
    pub tokens: Vec<Vec<u32>>,
}

/// One machine's comparison.
#[derive(Clone, Debug, Deserialize)]
pub struct SpeedRun {
    /// `support::machine::describe()`: CPU, cores, instruction sets
    pub machine: String,
    /// the instruction set the fast path ran on
    pub isa: String,
    pub threads: usize,
    pub clips: usize,
    /// seconds of speech in the five clips
    pub audio_seconds: f64,
    pub rounds: usize,
    pub programs: Vec<Program>,
}

/// The fast path's name in the files.
pub const FAST: &str = "fast path";
/// Chapter 5's blocks' name.
pub const BLOCKS: &str = "chapter 5's blocks (dfdx)";
/// The program the ratios are taken against.
pub const REFERENCE: &str = "transformers";
/// faster-whisper's two runs.
pub const FASTER_WHISPER: [&str; 2] = ["faster-whisper float32", "faster-whisper int8"];
/// The programs, in the table's order, with what each runs.
pub const PROGRAMS: [(&str, &str); 5] = [
    (FAST, "this chapter's fast path (chapters 8 and 12's kernels)"),
    (BLOCKS, "chapter 5's blocks on dfdx"),
    (REFERENCE, "transformers, PyTorch eager, float32"),
    (FASTER_WHISPER[0], "faster-whisper (CTranslate2), float32"),
    (FASTER_WHISPER[1], "faster-whisper (CTranslate2), int8"),
];
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

    /// A program's rounds as speeds: seconds of speech per second.
    pub fn speeds(&self, name: &str) -> Vec<f64> {
        self.program(name).rounds.iter().map(|s| self.audio_seconds / s).collect()
    }

    /// The best, median and slowest speed.
    pub fn summary(&self, name: &str) -> Summary {
        Summary::of(&self.speeds(name)).expect("checked: positive rounds")
    }

    /// A program's best speed over transformers' best.
    pub fn ratio(&self, name: &str) -> f64 {
        self.summary(name).best / self.summary(REFERENCE).best
    }

    /// A program's median speed over transformers' median.
    pub fn median_ratio(&self, name: &str) -> f64 {
        self.summary(name).median / self.summary(REFERENCE).median
    }

    /// Round by round, a program's speed over transformers' in the same round.
    pub fn round_ratios(&self, name: &str) -> Vec<f64> {
        paired_ratios(&self.speeds(name), &self.speeds(REFERENCE)).expect("checked rounds")
    }

    /// What a run must say to be shown: its machine, 2 threads, the five clips, every program
    /// with every round (at least [`MIN_ROUNDS`], each positive), each best its fastest round,
    /// the fast path's stages adding up to its best round, and the Python programs' versions.
    pub fn check(&self) -> Result<(), String> {
        support::machine::check_line(&self.machine)?;
        if (self.threads, self.clips) != (2, 5) {
            return Err("not the five clips on 2 threads".into());
        }
        if self.rounds < MIN_ROUNDS {
            return Err(format!("{} rounds: a median needs at least {MIN_ROUNDS}", self.rounds));
        }
        for (name, _) in PROGRAMS {
            let p = self.programs.iter().find(|p| p.program == name).ok_or(format!("no {name}"))?;
            if p.rounds.len() != self.rounds || Summary::of(&p.rounds).is_none() {
                return Err(format!("{name}: not {} positive rounds", self.rounds));
            }
            let fastest = p.rounds.iter().copied().fold(f64::INFINITY, f64::min);
            if (fastest - p.seconds).abs() > 1e-3 * fastest {
                return Err(format!(
                    "{name}: best {} is not its fastest round {fastest}",
                    p.seconds
                ));
            }
            if name != FAST && name != BLOCKS && p.versions.is_empty() {
                return Err(format!("{name}: no versions recorded"));
            }
        }
        let stages: f64 = self.program(FAST).stages.values().sum();
        if (stages - self.program(FAST).seconds).abs() > 2e-3 * stages.max(1e-9) + 2e-4 {
            return Err(format!("the fast path's stages add up to {stages}, not its best round"));
        }
        Ok(())
    }

    /// The libraries each program ran on: `ctranslate2 4.8.5, ...`.
    pub fn versions(&self) -> String {
        let mut all = BTreeMap::new();
        for p in &self.programs {
            for (library, version) in &p.versions {
                all.insert(library.replace('_', "-"), version.clone());
            }
        }
        all.iter().map(|(l, v)| format!("{l} {v}")).collect::<Vec<_>>().join(", ")
    }

    /// The table for this run, with the fast path's time stage by stage.
    pub fn table(&self) -> String {
        let mut out = format!(
            "Measured on {}, with {}; the five clips ({:.2} s of speech), {} threads each, {} \
             alternating rounds; the fast path on {}.\n\n\
             | program | × real time, best | median | slowest | best vs transformers' best | \
             median vs median |\n|---|---:|---:|---:|---:|---:|\n",
            self.machine,
            self.versions(),
            self.audio_seconds,
            self.threads,
            self.rounds,
            self.isa
        );
        for (name, what) in PROGRAMS {
            let s = self.summary(name);
            out += &format!(
                "| {what} | {:.1} | {:.1} | {:.1} | {:.2}× | {:.2}× |\n",
                s.best,
                s.median,
                s.slowest,
                self.ratio(name),
                self.median_ratio(name)
            );
        }
        let rounds = Summary::of(&self.round_ratios(FAST)).expect("positive ratios");
        let fast = self.program(FAST);
        let stage = |name: &str| {
            let s = fast.stages.get(name).copied().unwrap_or(0.0);
            format!("{name} {:.0} ms ({:.0} %)", s * 1e3, 100.0 * s / fast.seconds)
        };
        out += &format!(
            "\nRound by round, the fast path ran at {:.2}× to {:.2}× transformers' speed in the \
             same round. Its best round, stage by stage: {}, {}, {}, {}.\n",
            rounds.slowest,
            rounds.best,
            stage("spectrogram"),
            stage("encoder"),
            stage("cross"),
            stage("decoding")
        );
        out
    }
}

/// What the committed runs say together: the fast path against transformers (the chapter's goal,
/// at least 1.0×) and against faster-whisper, by best and median round.
pub fn summary(runs: &[(String, SpeedRun)]) -> String {
    let range = |values: Vec<f64>| {
        let s = Summary::of(&values).expect("positive ratios");
        if values.len() == 1 || format!("{:.2}", s.slowest) == format!("{:.2}", s.best) {
            format!("{:.2}×", s.best)
        } else {
            format!("{:.2}× to {:.2}×", s.slowest, s.best)
        }
    };
    let over = |other: &str, median: bool| -> Vec<f64> {
        (runs.iter())
            .map(|(_, r)| {
                let (a, b) = (r.summary(FAST), r.summary(other));
                if median {
                    a.median / b.median
                } else {
                    a.best / b.best
                }
            })
            .collect()
    };
    let rounds: Vec<f64> = runs.iter().flat_map(|(_, r)| r.round_ratios(FAST)).collect();
    let lowest = rounds.iter().copied().fold(f64::INFINITY, f64::min);
    let machines = match runs.len() {
        1 => "On the one machine measured".to_string(),
        n => format!("On the {n} machines measured"),
    };
    let verdict = if lowest >= 1.0 {
        "The goal, at least 1.0×, is met in every round.".to_string()
    } else if runs.iter().all(|(_, r)| r.median_ratio(FAST) >= 1.0) {
        format!("The goal, at least 1.0×, is met by the medians, though not in every round (the slowest pair gave {lowest:.2}×).")
    } else {
        "The goal, at least 1.0×, is not met by the medians.".to_string()
    };
    format!(
        "{machines}, the fast path transcribes at {} transformers' speed by the best rounds and \
         {} by the medians. {verdict} Against faster-whisper, by the medians, it runs at {} its \
         float32 speed and {} its int8 speed.\n",
        range(over(REFERENCE, false)),
        range(over(REFERENCE, true)),
        range(over(FASTER_WHISPER[0], true)),
        range(over(FASTER_WHISPER[1], true)),
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
    let writer = "python3 chapters/13-real-whisper/compare/compare_speed.py";
    read_json_folder(folder(), "a speed comparison", writer).unwrap_or_else(|e| panic!("{e}"))
}

/// `measurements/speed.md` (every run's table) and `measurements/speed-summary.md`.
pub fn generated_files() -> [(PathBuf, String); 2] {
    let runs = committed();
    let dir = folder().parent().expect("measurements/").to_path_buf();
    let tables = runs.iter().map(|(_, r)| r.table()).collect::<Vec<_>>().join("\n");
    [(dir.join("speed.md"), tables), (dir.join("speed-summary.md"), summary(&runs))]
}

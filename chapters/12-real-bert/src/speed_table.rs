//! The committed speed comparisons (`measurements/speed/<machine>.json`, written by
//! `compare/compare_speed.py`): read, checked, and turned into the page's tables and the sentence
//! that sums them up across machines (best, median and round-by-round ratios), with
//! [`support::speed`]'s pieces; what is this chapter's own is its workload, 256 sentences.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;
use support::rounds::Summary;
use support::speed::{self, text, Comparisons, Header, Ratio, Series, Timed, Timing, MIN_ROUNDS};

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

impl Timed for Program {
    fn timing(&self) -> Timing<'_> {
        let series = vec![Series::rates(&self.rounds, self.sentences_per_s)];
        Timing { name: &self.program, versions: &self.versions, series }
    }
}

/// One machine's comparison.
#[derive(Clone, Debug, Deserialize)]
pub struct SpeedRun {
    /// the machine, the fast path's instruction set, threads and rounds
    #[serde(flatten)]
    pub header: Header,
    pub sentences: usize,
    pub tokens: usize,
    pub batch: usize,
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

impl SpeedRun {
    /// A program's rounds.
    ///
    /// # Panics
    /// If the run does not have it.
    pub fn program(&self, name: &str) -> &Program {
        speed::program(&self.programs, name)
    }

    /// A program's rate over the reference's: by best, by median and round by round.
    pub fn against(&self, name: &str) -> Ratio {
        let rounds = |name| &self.program(name).rounds;
        Ratio::of(rounds(name), rounds(REFERENCE)).expect("checked: as many positive rounds")
    }

    /// What a run must say to be shown: its machine, 2 threads, batches of 32, every program
    /// with every round (at least [`MIN_ROUNDS`], each a positive rate), each best the largest
    /// of its rounds, the reference's libraries.
    pub fn check(&self) -> Result<(), String> {
        self.header.check(2, MIN_ROUNDS)?;
        if (self.batch, self.sentences) != (32, 256) {
            return Err("not 256 sentences in batches of 32".into());
        }
        speed::check_programs(&self.programs, PROGRAMS.map(|(name, _)| name), self.header.rounds)?;
        speed::check_versions(self.program(REFERENCE))
    }

    /// The table for this run.
    pub fn table(&self) -> String {
        let workload = format!(
            "{} sentences ({} tokens) in batches of {}",
            self.sentences, self.tokens, self.batch
        );
        let versions = speed::versions(&self.programs);
        let rows =
            PROGRAMS.map(|(name, what)| (what, self.program(name).summary(), self.against(name)));
        format!(
            "{}\n\n{}\n{}\n",
            self.header.measured(&versions, &workload, "the fast path"),
            text::reference_table("sentences/s", REFERENCE, rows),
            text::round_by_round("the fast path", &self.against(FAST), REFERENCE)
        )
    }
}

/// What the committed runs say together, for the page: the fast path's ratio to
/// sentence-transformers by best and by median round, across machines, and whether the chapter's
/// goal (at least 1.0×) holds in the medians and in every round.
pub fn summary(runs: &[(String, SpeedRun)]) -> String {
    let fast: Vec<(&Header, Ratio)> =
        runs.iter().map(|(_, r)| (&r.header, r.against(FAST))).collect();
    let best = text::range(fast.iter().map(|(_, ratio)| ratio.best));
    let median = text::range(fast.iter().map(|(_, ratio)| ratio.median));
    let blocks = text::range(runs.iter().map(|(_, r)| r.against(BLOCKS).median));
    format!(
        "{}, the fast path's best round is {best} sentence-transformers' best, and its median \
         round {median} sentence-transformers' median. {} Chapter 5's blocks on dfdx reach \
         {blocks} by the medians.\n",
        text::on_machines(runs.len()),
        text::goal(&fast)
    )
}

/// The committed runs, `measurements/speed/<machine>.json`, and the script that writes them.
pub const RUNS: Comparisons = Comparisons {
    crate_dir: env!("CARGO_MANIFEST_DIR"),
    writer: "python3 chapters/12-real-bert/compare/compare_speed.py",
};

/// Every committed run, by file name.
///
/// # Panics
/// If a file cannot be read as a [`SpeedRun`]; the message names it and the script that writes it.
pub fn committed() -> Vec<(String, SpeedRun)> {
    RUNS.read()
}

/// Every run's table, one after another: `measurements/speed.md`.
pub fn tables() -> String {
    speed::joined(&committed(), SpeedRun::table)
}

/// The committed runs' [`summary`]: `measurements/speed-summary.md`, which the page includes in
/// its speed section and its summary.
pub fn committed_summary() -> String {
    summary(&committed())
}

/// `measurements/speed.md` and `measurements/speed-summary.md`, with what each must hold.
pub fn generated_files() -> [(PathBuf, String); 2] {
    [
        (RUNS.page_file("speed.md"), tables()),
        (RUNS.page_file("speed-summary.md"), committed_summary()),
    ]
}

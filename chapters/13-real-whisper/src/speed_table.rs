//! The committed speed comparisons (`measurements/speed/<machine>.json`, written by
//! `compare/compare_speed.py`): read, checked, and turned into the page's table and the sentence
//! that sums it up, with [`support::speed`]'s pieces. A program's speed is how many seconds of
//! speech it transcribes per second (`× real time`, the inverse of the real-time factor); the
//! ratios are taken against transformers. What is this chapter's own: the five clips, the fast
//! path's stages and the faster-whisper programs.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;
use support::rounds::Summary;
use support::speed::{self, text, Comparisons, Header, Ratio, Series, Timed, Timing, MIN_ROUNDS};

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

impl Timed for Program {
    fn timing(&self) -> Timing<'_> {
        let series = vec![Series::seconds(&self.rounds, self.seconds)];
        Timing { name: &self.program, versions: &self.versions, series }
    }
}

/// One machine's comparison.
#[derive(Clone, Debug, Deserialize)]
pub struct SpeedRun {
    /// the machine, the fast path's instruction set, threads and rounds
    #[serde(flatten)]
    pub header: Header,
    pub clips: usize,
    /// seconds of speech in the five clips
    pub audio_seconds: f64,
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

impl SpeedRun {
    /// A program's rounds.
    ///
    /// # Panics
    /// If the run does not have it.
    pub fn program(&self, name: &str) -> &Program {
        speed::program(&self.programs, name)
    }

    /// A program's rounds as speeds: seconds of speech per second.
    pub fn speeds(&self, name: &str) -> Vec<f64> {
        self.program(name).rounds.iter().map(|s| self.audio_seconds / s).collect()
    }

    /// The best, median and slowest speed.
    pub fn summary(&self, name: &str) -> Summary {
        Summary::of(&self.speeds(name)).expect("checked: positive rounds")
    }

    /// `ours`' speed over `theirs`: by best, by median and round by round.
    pub fn ratio(&self, ours: &str, theirs: &str) -> Ratio {
        Ratio::of(&self.speeds(ours), &self.speeds(theirs)).expect("checked rounds")
    }

    /// A program's speed over transformers'.
    pub fn against(&self, name: &str) -> Ratio {
        self.ratio(name, REFERENCE)
    }

    /// What a run must say to be shown: its machine, 2 threads, the five clips, every program
    /// with every round (at least [`MIN_ROUNDS`], each positive), each best its fastest round,
    /// the fast path's stages adding up to its best round, and the Python programs' versions.
    pub fn check(&self) -> Result<(), String> {
        self.header.check(2, MIN_ROUNDS)?;
        if self.clips != 5 {
            return Err("not the five clips".into());
        }
        speed::check_programs(&self.programs, PROGRAMS.map(|(name, _)| name), self.header.rounds)?;
        for name in [REFERENCE, FASTER_WHISPER[0], FASTER_WHISPER[1]] {
            speed::check_versions(self.program(name))?;
        }
        let stages: f64 = self.program(FAST).stages.values().sum();
        if (stages - self.program(FAST).seconds).abs() > 2e-3 * stages.max(1e-9) + 2e-4 {
            return Err(format!("the fast path's stages add up to {stages}, not its best round"));
        }
        Ok(())
    }

    /// The table for this run, with the fast path's time stage by stage.
    pub fn table(&self) -> String {
        let workload = format!("the five clips ({:.2} s of speech)", self.audio_seconds);
        let versions = speed::versions(&self.programs);
        let rows = PROGRAMS.map(|(name, what)| (what, self.summary(name), self.against(name)));
        let fast = self.program(FAST);
        let stage = |name: &str| {
            let s = fast.stages.get(name).copied().unwrap_or(0.0);
            format!("{name} {:.0} ms ({:.0} %)", s * 1e3, 100.0 * s / fast.seconds)
        };
        format!(
            "{}\n\n{}\n{} Its best round, stage by stage: {}, {}, {}, {}.\n",
            self.header.measured(&versions, &workload, "the fast path"),
            text::reference_table("× real time", REFERENCE, rows),
            text::round_by_round("the fast path", &self.against(FAST), REFERENCE),
            stage("spectrogram"),
            stage("encoder"),
            stage("cross"),
            stage("decoding")
        )
    }
}

/// What the committed runs say together: the fast path against transformers (the chapter's goal,
/// at least 1.0×) and against faster-whisper, by best and median round.
pub fn summary(runs: &[(String, SpeedRun)]) -> String {
    let over =
        |theirs: &str| -> Vec<Ratio> { runs.iter().map(|(_, r)| r.ratio(FAST, theirs)).collect() };
    let best = |ratios: &[Ratio]| text::range(ratios.iter().map(|r| r.best));
    let median = |ratios: &[Ratio]| text::range(ratios.iter().map(|r| r.median));
    let fast: Vec<(&Header, Ratio)> =
        runs.iter().map(|(_, r)| (&r.header, r.against(FAST))).collect();
    let reference = over(REFERENCE);
    format!(
        "{}, the fast path transcribes at {} transformers' speed by the best rounds and {} by the \
         medians. {} Against faster-whisper, by the medians, it runs at {} its float32 speed and \
         {} its int8 speed.\n",
        text::on_machines(runs.len()),
        best(&reference),
        median(&reference),
        text::goal(&fast),
        median(&over(FASTER_WHISPER[0])),
        median(&over(FASTER_WHISPER[1])),
    )
}

/// The committed runs, `measurements/speed/<machine>.json`, and the script that writes them.
pub const RUNS: Comparisons = Comparisons {
    crate_dir: env!("CARGO_MANIFEST_DIR"),
    writer: "python3 chapters/13-real-whisper/compare/compare_speed.py",
};

/// Every committed run, by file name.
///
/// # Panics
/// If a file cannot be read as a [`SpeedRun`]; the message names it and the script that writes it.
pub fn committed() -> Vec<(String, SpeedRun)> {
    RUNS.read()
}

/// `measurements/speed.md` (every run's table) and `measurements/speed-summary.md`.
pub fn generated_files() -> [(PathBuf, String); 2] {
    let runs = committed();
    let tables = speed::joined(&runs, SpeedRun::table);
    [(RUNS.page_file("speed.md"), tables), (RUNS.page_file("speed-summary.md"), summary(&runs))]
}

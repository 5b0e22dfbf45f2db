//! The committed speed comparisons (`measurements/speed/<machine>.json`, written by
//! `compare/compare_speed.py`): read, checked, and turned into the page's tables, with
//! [`support::speed`]'s pieces. What is this chapter's own: prefill and decode timed apart, a
//! decode step's profile (`profile.rs`), the memory bandwidth and its readers, llama.cpp's
//! configuration (`table.rs`). A file written before a field was recorded still reads; its table
//! says what it lacks.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;
use support::rounds::Summary;
use support::speed::{self, Comparisons, Header, Series, Timed, Timing};

mod profile;
mod prompts;
mod table;

pub use prompts::LongPrompt;

/// One part of a decode step, from a profiled pass of its own.
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
    /// the `f32` paths only: the sum reader's rate (bytes per second) run right after each
    /// round, in the order of `decode_rounds`; not recorded in the first files
    #[serde(default)]
    pub paired_sum_reader_rounds: Option<Vec<f64>>,
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

    /// Each round's share of the sum reader run right after it: the weights read per second
    /// over the reader's rate. `None` where the file does not pair the rounds.
    pub fn paired_shares(&self) -> Option<Vec<f64>> {
        let (readers, bytes) =
            (self.paired_sum_reader_rounds.as_ref()?, self.weight_bytes_per_token?);
        let rounds = self.decode_rounds.iter().zip(readers);
        Some(rounds.map(|(tokens, reader)| tokens * bytes as f64 / reader).collect())
    }

    /// The prefill rounds' best, median and slowest.
    pub fn prefill(&self) -> Summary {
        Summary::of(&self.prefill_rounds).expect("checked: positive rounds")
    }
}

impl Timed for Program {
    fn timing(&self) -> Timing<'_> {
        let series = vec![
            Series::rates(&self.prefill_rounds, self.prefill_tokens_per_s),
            Series::rates(&self.decode_rounds, self.decode_tokens_per_s),
        ];
        Timing { name: &self.program, versions: &self.versions, series }
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
    /// the machine, the instruction set this chapter's kernels ran on, threads and rounds
    #[serde(flatten)]
    pub header: Header,
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
    pub programs: Vec<Program>,
    /// the longer prompts' prefill, this chapter's quantized path and llama.cpp's; not recorded
    /// in the first files
    #[serde(default)]
    pub prompts: Option<Vec<LongPrompt>>,
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
        speed::program(&self.programs, name)
    }

    /// What a run must say to be shown: its machine, 2 threads, every program with every round
    /// of prefill and decode (positive rates), each best the largest of its rounds, every
    /// program's tokens counted, a profile of each decode path, llama.cpp's configuration one of
    /// the two (and why, where its defaults did not run), and the bandwidth the best of its
    /// readers. One round is enough here: the table says how many there were.
    pub fn check(&self) -> Result<(), String> {
        self.header.check(2, 1)?;
        let optional = WITHOUT_PREFETCH.iter().filter(|(n, _)| self.has(n));
        let names: Vec<&str> = PROGRAMS.iter().chain(optional).map(|(name, _)| *name).collect();
        speed::check_programs(&self.programs, names.iter().copied(), self.header.rounds)?;
        for name in names {
            let p = self.program(name);
            if name.starts_with("quantized") || name.starts_with("f32") {
                if p.profile.is_none() {
                    return Err(format!("{name} has no profile"));
                }
                if p.profile_passes.is_some_and(|n| n != self.header.rounds) {
                    return Err(format!("{name}'s profile is not of one pass per round"));
                }
            }
            if let Some(readers) = &p.paired_sum_reader_rounds {
                if readers.len() != p.decode_rounds.len() || readers.iter().any(|r| *r <= 0.0) {
                    return Err(format!(
                        "{name}'s paired readers are not one positive rate per round"
                    ));
                }
                if p.weight_bytes_per_token.is_none() {
                    return Err(format!("{name} has paired readers but no bytes per token"));
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
        for prompt in self.prompts.iter().flatten() {
            prompt.check(self.header.rounds)?;
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
        speed::find(&self.programs, name).is_some()
    }

    /// `program`'s best decode speed over `other`'s.
    pub fn decode_ratio(&self, program: &str, other: &str) -> f64 {
        self.program(program).decode().best / self.program(other).decode().best
    }

    /// `program`'s median decode speed over `other`'s.
    pub fn decode_median_ratio(&self, program: &str, other: &str) -> f64 {
        self.program(program).decode().median / self.program(other).decode().median
    }
}

/// The committed comparisons, `measurements/speed/<machine>.json`, and the script that writes
/// them.
pub const RUNS: Comparisons = Comparisons {
    crate_dir: env!("CARGO_MANIFEST_DIR"),
    writer: "python3 chapters/11-real-llm/compare/compare_speed.py",
};

/// Every committed comparison, by file name, sorted.
///
/// # Panics
/// If a file cannot be read as a [`SpeedRun`]; the message names it and the script that writes it.
pub fn committed() -> Vec<(String, SpeedRun)> {
    RUNS.read()
}

/// Every machine's speed table, the file `measurements/speed.md` holds.
pub fn tables() -> String {
    speed::joined(&committed(), SpeedRun::table)
}

/// Every machine's decode-step profile, the file `measurements/speed-profile.md` holds.
pub fn profiles() -> String {
    speed::joined(&committed(), SpeedRun::profile_table)
}

/// `measurements/speed.md` and `measurements/speed-profile.md`, with what each must hold.
pub fn generated_files() -> [(PathBuf, String); 2] {
    [(RUNS.page_file("speed.md"), tables()), (RUNS.page_file("speed-profile.md"), profiles())]
}

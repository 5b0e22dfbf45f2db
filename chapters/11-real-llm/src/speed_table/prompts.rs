//! The longer prompts: the prefill of the first 256 and 1,024 tokens of chapter 10's text, this
//! chapter's quantized path against llama.cpp on the same ids, round by round.

use std::collections::BTreeMap;

use support::rounds::Summary;

use super::SpeedRun;

/// The programs a longer prompt is timed on.
pub const PROMPT_PROGRAMS: [&str; 2] = ["quantized", "llama.cpp"];

/// One longer prompt's rounds.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct LongPrompt {
    /// its length
    pub tokens: usize,
    /// each program's prefill rates, tokens per second, round by round
    pub rounds: BTreeMap<String, Vec<f64>>,
    /// the greedy token each program predicts after the prompt
    pub next: BTreeMap<String, usize>,
    /// whether every round of every program predicted its `next`
    pub next_equal_every_round: bool,
}

impl LongPrompt {
    /// `program`'s best, median and slowest rate.
    ///
    /// # Panics
    /// If the prompt was not timed on `program`.
    pub fn prefill(&self, program: &str) -> Summary {
        Summary::of(&self.rounds[program]).expect("checked: positive rounds")
    }

    /// This chapter's prefill over llama.cpp's: `(by best, by median)`.
    pub fn ratios(&self) -> (f64, f64) {
        let (ours, theirs) = (self.prefill("quantized"), self.prefill("llama.cpp"));
        (ours.best / theirs.best, ours.median / theirs.median)
    }

    /// Every program timed in `rounds` positive rounds, each predicting a token.
    pub fn check(&self, rounds: usize) -> Result<(), String> {
        for name in PROMPT_PROGRAMS {
            let Some(rates) = self.rounds.get(name) else {
                return Err(format!("the {}-token prompt has no rounds of {name}", self.tokens));
            };
            if rates.len() != rounds || Summary::of(rates).is_none() {
                return Err(format!(
                    "the {}-token prompt's {name} does not have {rounds} positive rounds",
                    self.tokens
                ));
            }
            if !self.next.contains_key(name) {
                return Err(format!("the {}-token prompt's {name} predicts no token", self.tokens));
            }
        }
        Ok(())
    }
}

impl SpeedRun {
    /// The longer prompt of `tokens` tokens.
    ///
    /// # Panics
    /// If the run did not time it.
    pub fn prompt(&self, tokens: usize) -> &LongPrompt {
        (self.prompts.iter().flatten())
            .find(|p| p.tokens == tokens)
            .unwrap_or_else(|| panic!("no {tokens}-token prompt in {}", self.header.machine))
    }

    /// The longer prompts' table, where the run has them: each program's best, median and
    /// spread, and the ratio by best and by median.
    pub fn prompts_table(&self) -> String {
        let Some(prompts) = &self.prompts else { return String::new() };
        let mut out = String::from(
            "\nPrefill of longer prompts, the first tokens of chapter 10's text run at once, tokens/s:\n\n",
        );
        out += "| prompt | this chapter, the file's blocks, best | median | slowest–fastest | llama.cpp, best | median | slowest–fastest | this chapter / llama.cpp, best | by median | same next token |\n";
        out += "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
        for p in prompts {
            let (ours, theirs) = (p.prefill("quantized"), p.prefill("llama.cpp"));
            let (best, median) = p.ratios();
            let same = p.next["quantized"] == p.next["llama.cpp"];
            out += &format!(
                "| {} tokens | {:.1} | {:.1} | {:.1}–{:.1} | {:.1} | {:.1} | {:.1}–{:.1} | {best:.2}× | {median:.2}× | {} |\n",
                p.tokens,
                ours.best,
                ours.median,
                ours.slowest,
                ours.best,
                theirs.best,
                theirs.median,
                theirs.slowest,
                theirs.best,
                if same { "yes" } else { "no" },
            );
        }
        out
    }
}

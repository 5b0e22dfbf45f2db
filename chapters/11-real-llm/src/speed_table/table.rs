//! The page's speed table: each program's prefill and decode rates, its ratios to transformers,
//! the weights it reads per token and the share of the bandwidth that is; what an old run's file
//! does not record, said.

use support::rounds::Summary;

use super::{SpeedRun, DEFAULTS, PROGRAMS, WITHOUT_PREFETCH};

impl SpeedRun {
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

    /// The `f32` rounds against the sum reader run right after each, as a sentence: the
    /// slowest–fastest share and the median, for each `f32` row that pairs its rounds; empty
    /// where none does.
    pub fn paired_line(&self) -> String {
        let rows = ["f32", "f32, prefetch off"].into_iter().filter(|n| self.has(n));
        let each: Vec<String> = rows
            .filter_map(|name| {
                let shares = self.program(name).paired_shares()?;
                let s = Summary::of(&shares).expect("checked: positive rates");
                let (lo, hi, median) = (100.0 * s.slowest, 100.0 * s.best, 100.0 * s.median);
                Some(match name {
                    "f32" => format!(
                        "{lo:.0}–{hi:.0} % of the rate of its moment (median {median:.0} %)"
                    ),
                    _ => format!(
                        "{lo:.0}–{hi:.0} % (median {median:.0} %) with its software prefetch off"
                    ),
                })
            })
            .collect();
        match each.is_empty() {
            true => String::new(),
            false => format!(
                "\nEach `f32` round was followed at once by the sum reader, so that a round and its reading share one moment of the machine: the `f32` path read {}.\n",
                each.join(", and ")
            ),
        }
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
        if self.program("f32").paired_sum_reader_rounds.is_none() {
            missing.push("a reader paired with each `f32` round");
        }
        if self.prompts.is_none() {
            missing.push("the longer prompts");
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
            self.header.machine, self.header.threads, self.prompt_ids.len(), self.new_tokens,
            self.header.rounds_phrase(),
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
        out + &self.paired_line() + &self.prompts_table() + &self.not_recorded()
    }
    // ANCHOR_END: table
}

//! Where one decode step's time goes on this chapter's two paths, from a profiled pass of its
//! own after each round, and how fast each part reads its weights against the bandwidth measured.

use super::{Part, SpeedRun};

impl Part {
    /// The rate it reads its weights at, in bytes per second; `None` if it reads none.
    pub fn read_rate(&self) -> Option<f64> {
        (self.weight_bytes > 0).then(|| self.weight_bytes as f64 / (self.ms_per_token * 1e-3))
    }
}

impl SpeedRun {
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
            self.header.machine,
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

//! A run of `mla_decode_speed`: its rounds, the table the page shows, and the file it is kept in.

use serde_json::{json, Value};
use support::rounds::Summary;

use super::speed::{StepTimes, Timed, HEADS, KV_RANK, NOPE, ROPE, V};

/// A row of a run: one cache length's rounds.
pub type Row = StepTimes;

/// The committed run the page's table and figure are drawn from.
pub const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/measurements/mla_decode.json");

/// The committed run.
///
/// # Panics
/// If the file is missing or not a run (`mla_decode_speed -- --json` writes one).
pub fn committed() -> Run {
    let text = std::fs::read_to_string(COMMITTED).unwrap_or_else(|e| panic!("{COMMITTED}: {e}"));
    Run::from_json(&text).unwrap_or_else(|e| panic!("{COMMITTED}: {e}"))
}

/// The cache lengths timed.
pub const TOKENS: [usize; 3] = [2048, 8192, 32_768];

/// Rounds per cache length: each runs every form once.
pub const ROUNDS: usize = 11;

/// The machine, and one [`StepTimes`] per cache length.
#[derive(Clone, Debug)]
pub struct Run {
    pub machine: String,
    pub threads: usize,
    pub rows: Vec<StepTimes>,
}

/// Round by round, `form`'s time over the absorbed-in-turn form's: median and range.
pub fn ratio(t: &StepTimes, form: Timed) -> Summary {
    let ratios: Vec<f64> =
        (t.of(form).iter().zip(t.of(Timed::InTurn))).map(|(f, a)| f / a).collect();
    Summary::of(&ratios).expect("positive times")
}

/// Milliseconds of a form's rounds: median, fastest and slowest (as rates, which
/// [`Summary`] takes, then back to times).
pub fn ms(t: &StepTimes, form: Timed) -> Summary {
    let rates: Vec<f64> = t.of(form).iter().map(|m| 1e3 / m).collect();
    let s = Summary::of(&rates).expect("positive times");
    Summary { best: 1e3 / s.best, median: 1e3 / s.median, slowest: 1e3 / s.slowest, ..s }
}

impl Run {
    pub fn to_json(&self) -> String {
        let rows: Vec<Value> = (self.rows.iter())
            .map(|t| {
                let ms: serde_json::Map<String, Value> =
                    Timed::ALL.iter().map(|&f| (f.name().to_string(), json!(t.of(f)))).collect();
                json!({"tokens": t.tokens, "ms": ms, "difference": t.difference})
            })
            .collect();
        let v = json!({"machine": self.machine, "threads": self.threads, "rows": rows});
        serde_json::to_string_pretty(&v).expect("json")
    }

    pub fn from_json(text: &str) -> Result<Run, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let floats = |x: &Value| -> Result<Vec<f64>, String> {
            let a = x.as_array().ok_or("a form without its rounds")?;
            a.iter().map(|m| m.as_f64().ok_or_else(|| format!("{m} is not a time"))).collect()
        };
        let row = |r: &Value| -> Result<StepTimes, String> {
            let mut ms: [Vec<f64>; 4] = Default::default();
            for f in Timed::ALL {
                ms[f as usize] =
                    floats(&r["ms"][f.name()]).map_err(|e| format!("{}: {e}", f.name()))?;
            }
            Ok(StepTimes {
                tokens: r["tokens"].as_u64().ok_or("a row without tokens")? as usize,
                ms,
                difference: r["difference"].as_f64().ok_or("a row without its difference")? as f32,
            })
        };
        let rows =
            v["rows"].as_array().ok_or("no rows")?.iter().map(row).collect::<Result<_, _>>()?;
        Ok(Run {
            machine: v["machine"].as_str().ok_or("no machine")?.to_string(),
            threads: v["threads"].as_u64().ok_or("no threads")? as usize,
            rows,
        })
    }

    /// The page's table: per cache length, each form's median milliseconds with the rounds'
    /// range, then each form's time over the absorbed-in-turn form's, round by round.
    pub fn table(&self) -> String {
        let rounds = self.rows.first().map_or(0, |t| t.of(Timed::InTurn).len());
        let mut out = format!("{}, {} threads\n", self.machine, self.threads);
        out += &format!(
            "one layer, 16 heads; per cached token: {} bytes of latents, {} of keys and values\n",
            (KV_RANK + ROPE) * 4,
            HEADS * (NOPE + ROPE + V) * 4
        );
        out +=
            "absorbed: \"folded\" multiplies the matrices out, \"in turn\" applies the factors\n";
        out += &format!("milliseconds per step: median of {rounds} rounds (fastest-slowest)\n");
        let header = |forms: &[Timed], width: usize| {
            let names: String = forms.iter().map(|f| format!("  {:>width$}", f.column())).collect();
            format!("tokens{names}\n")
        };
        out += &header(&Timed::ALL, 19);
        for t in &self.rows {
            out += &format!("{:>6}", t.tokens);
            for f in Timed::ALL {
                let s = ms(t, f);
                let digits = if s.slowest >= 1000.0 { 0 } else { 1 };
                let cell =
                    format!("{:.digits$} ({:.digits$}-{:.digits$})", s.median, s.best, s.slowest);
                out += &format!("  {cell:>19}");
            }
            out += "\n";
        }
        out +=
            "each form's time over the absorbed-in-turn form's, round by round: median (range)\n";
        out += &header(&Timed::ALL[..3], 20);
        for t in &self.rows {
            out += &format!("{:>6}", t.tokens);
            for &f in &Timed::ALL[..3] {
                let r = ratio(t, f);
                let cell = format!("{:.2}x ({:.2}-{:.2})", r.median, r.slowest, r.best);
                out += &format!("  {cell:>20}");
            }
            out += "\n";
        }
        let differences: Vec<String> =
            self.rows.iter().map(|t| format!("{:.1e} ({})", t.difference, t.tokens)).collect();
        out += &format!("largest |difference| from re-expanded: {}\n", differences.join(", "));
        out
    }
}

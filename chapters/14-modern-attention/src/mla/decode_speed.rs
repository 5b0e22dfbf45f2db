//! A run of `mla_decode_speed`: its rounds, the table the page shows, and the file it is kept in.

use serde_json::{json, Value};
use support::rounds::Summary;

use super::speed::{StepTimes, KV_RANK, ROPE};

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

/// The machine, and one [`StepTimes`] per cache length.
#[derive(Clone, Debug)]
pub struct Run {
    pub machine: String,
    pub threads: usize,
    pub rows: Vec<StepTimes>,
}

/// The median and range of the expanded form's time over the absorbed form's, round by round.
pub fn ratio(t: &StepTimes) -> Summary {
    let ratios: Vec<f64> = t.expanded_ms.iter().zip(&t.absorbed_ms).map(|(e, a)| e / a).collect();
    Summary::of(&ratios).expect("positive times")
}

fn median_ms(ms: &[f64]) -> f64 {
    1e3 / Summary::of(&ms.iter().map(|m| 1e3 / m).collect::<Vec<_>>()).expect("positive").median
}

impl StepTimes {
    /// The median round of the expanded form, in milliseconds.
    pub fn expanded_median_ms(&self) -> f64 {
        median_ms(&self.expanded_ms)
    }

    /// The median round of the absorbed form, in milliseconds.
    pub fn absorbed_median_ms(&self) -> f64 {
        median_ms(&self.absorbed_ms)
    }
}

impl Run {
    pub fn to_json(&self) -> String {
        let rows: Vec<Value> = (self.rows.iter())
            .map(|t| {
                json!({"tokens": t.tokens, "expanded_ms": t.expanded_ms,
                       "absorbed_ms": t.absorbed_ms, "difference": t.difference})
            })
            .collect();
        let v = json!({"machine": self.machine, "threads": self.threads, "rows": rows});
        serde_json::to_string_pretty(&v).expect("json")
    }

    pub fn from_json(text: &str) -> Result<Run, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let floats = |x: &Value| -> Vec<f64> {
            x.as_array().map_or(vec![], |a| a.iter().filter_map(Value::as_f64).collect())
        };
        let rows = (v["rows"].as_array().ok_or("no rows")?.iter())
            .map(|r| StepTimes {
                tokens: r["tokens"].as_u64().unwrap_or(0) as usize,
                expanded_ms: floats(&r["expanded_ms"]),
                absorbed_ms: floats(&r["absorbed_ms"]),
                difference: r["difference"].as_f64().unwrap_or(f64::NAN) as f32,
            })
            .collect();
        Ok(Run {
            machine: v["machine"].as_str().ok_or("no machine")?.to_string(),
            threads: v["threads"].as_u64().ok_or("no threads")? as usize,
            rows,
        })
    }

    /// The page's table: per cache length, the median milliseconds of each form and the ratio.
    pub fn table(&self) -> String {
        let mut out = format!("{}, {} threads\n", self.machine, self.threads);
        out += &format!(
            "one layer of 16 heads; the cache: {} bytes per token (f32)\n",
            (KV_RANK + ROPE) * 4
        );
        out += "tokens  expanded ms  absorbed ms  expanded/absorbed: median (rounds' range)  |difference|\n";
        for t in &self.rows {
            let r = ratio(t);
            out += &format!(
                "{:>6}  {:>11.1}  {:>11.2}  {:>5.1}x ({:.1}x to {:.1}x, {} rounds)  {:>12.1e}\n",
                t.tokens,
                t.expanded_median_ms(),
                t.absorbed_median_ms(),
                r.median,
                r.slowest,
                r.best,
                r.rounds,
                t.difference
            );
        }
        out
    }
}

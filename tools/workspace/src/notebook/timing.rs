//! How long a reader who runs a notebook from the top waits for its first result.

use super::{cells, text_of};
use serde_json::Value;

/// Seconds from the start of the first code cell to the end of the first cell that prints
/// something, not counting the cells of evcxr commands (`:dep`, `:cache`): how long a reader who
/// runs the notebook from the top waits for its first result. Read from the timings Jupyter
/// records in each cell's metadata (`execution.iopub.execute_input`, `shell.execute_reply`).
pub fn seconds_to_first_output(executed: &Value) -> Option<f64> {
    let code: Vec<&Value> =
        cells(executed).ok()?.iter().filter(|c| c["cell_type"] == "code").collect();
    let start = timestamp(code.first()?["metadata"]["execution"]["iopub.execute_input"].as_str()?)?;
    let first = code.iter().find(|c| {
        !text_of(&c["source"]).trim_start().starts_with(':')
            && c["outputs"].as_array().is_some_and(|o| !o.is_empty())
    })?;
    let end = timestamp(first["metadata"]["execution"]["shell.execute_reply"].as_str()?)?;
    Some(end - start)
}

/// Seconds from the start of the first code cell to the end of the last: how long the notebook's
/// cells ran, from the same timings.
pub fn seconds_executing(executed: &Value) -> Option<f64> {
    let code: Vec<&Value> =
        cells(executed).ok()?.iter().filter(|c| c["cell_type"] == "code").collect();
    let time = |cell: &Value, key: &str| timestamp(cell["metadata"]["execution"][key].as_str()?);
    Some(time(code.last()?, "shell.execute_reply")? - time(code.first()?, "iopub.execute_input")?)
}

/// Seconds since 1970 of an ISO 8601 UTC timestamp such as `2026-11-23T11:37:03.522784Z`.
fn timestamp(s: &str) -> Option<f64> {
    let (date, time) = s.trim_end_matches('Z').split_once('T')?;
    let mut d = date.split('-').map(|p| p.parse::<i64>());
    let (y, m, day) = (d.next()?.ok()?, d.next()?.ok()?, d.next()?.ok()?);
    let mut t = time.split(':');
    let (h, min) = (t.next()?.parse::<f64>().ok()?, t.next()?.parse::<f64>().ok()?);
    let sec = t.next()?.parse::<f64>().ok()?;
    // days from the civil date (Howard Hinnant's algorithm)
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days as f64 * 86_400.0 + h * 3600.0 + min * 60.0 + sec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn timestamps_and_the_first_output() {
        assert_eq!(timestamp("1970-01-02T00:00:01.5Z"), Some(86_401.5));
        assert_eq!(timestamp("2000-03-01T00:00:00Z"), Some(951_868_800.0));
        let timed = |src: &str, start: &str, end: &str, out: Value| {
            json!({"cell_type": "code", "id": src, "metadata": {"execution": {
                "iopub.execute_input": start, "shell.execute_reply": end}},
                "source": src, "execution_count": 1, "outputs": out})
        };
        let printed = json!([{"output_type": "stream", "name": "stdout", "text": "x"}]);
        let n = json!({"cells": [
            timed(":dep a", "2026-01-01T10:00:00Z", "2026-01-01T10:00:09Z", printed.clone()),
            timed("let a = 1;", "2026-01-01T10:00:09Z", "2026-01-01T10:00:12Z", json!([])),
            timed("println!()", "2026-01-01T10:00:12Z", "2026-01-01T10:00:14.5Z", printed),
            timed("let b = 2;", "2026-01-01T10:00:14.5Z", "2026-01-01T10:00:20.25Z", json!([])),
        ]});
        assert_eq!(seconds_to_first_output(&n), Some(14.5));
        assert_eq!(seconds_executing(&n), Some(20.25));
    }
}

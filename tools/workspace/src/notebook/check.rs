//! The rules for a notebook: as committed (clean, nbformat 4.5, the `rust` kernel) and after
//! Jupyter ran it (every code cell ran, none errored or panicked, none shows `()`, and every time
//! it prints names the machine it was measured on).

use super::{cells, problem, text_of, Problem};
use anyhow::Result;
use serde_json::Value;

/// Checks a notebook as committed: nbformat 4.5 or later, unique cell ids, the `rust` kernel, and
/// no stored outputs (the test command executes it; the repository keeps it clean).
pub fn check_source(nb: &Value) -> Result<Vec<Problem>> {
    let mut out = Vec::new();
    let (major, minor) = (nb["nbformat"].as_u64(), nb["nbformat_minor"].as_u64());
    if major != Some(4) || minor.unwrap_or(0) < 5 {
        out.push(problem(
            None,
            format!("nbformat is {major:?}.{minor:?}; cell ids need 4.5 or later"),
        ));
    }
    let kernel = nb["metadata"]["kernelspec"]["name"].as_str();
    if kernel != Some("rust") {
        out.push(problem(
            None,
            format!("kernelspec name is {kernel:?}, expected \"rust\" (evcxr)"),
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for (i, c) in cells(nb)?.iter().enumerate() {
        match c["id"].as_str() {
            None => out.push(problem(Some(i), "cell has no id (nbformat 4.5)")),
            Some(id) if !seen.insert(id.to_string()) => {
                out.push(problem(Some(i), format!("cell id {id:?} is used twice")))
            }
            Some(_) => {}
        }
        if c["cell_type"] == "code" {
            if c["outputs"].as_array().is_some_and(|o| !o.is_empty()) {
                out.push(problem(Some(i), "stored outputs: commit notebooks without outputs"));
            }
            if !c["execution_count"].is_null() {
                out.push(problem(Some(i), "stored execution_count: commit notebooks unexecuted"));
            }
        }
    }
    Ok(out)
}

/// Checks an executed notebook: every code cell ran, and none of them errored or panicked.
pub fn check_executed(nb: &Value) -> Result<Vec<Problem>> {
    let mut out = Vec::new();
    for (i, c) in cells(nb)?.iter().enumerate() {
        if c["cell_type"] != "code" || text_of(&c["source"]).trim().is_empty() {
            continue;
        }
        if c["execution_count"].is_null() {
            out.push(problem(Some(i), "was not executed"));
        }
        let outputs = c["outputs"].as_array().cloned().unwrap_or_default();
        let mut stderr = String::new();
        let mut stdout = String::new();
        for o in &outputs {
            match o["output_type"].as_str() {
                Some("error") => {
                    let name = o["ename"].as_str().unwrap_or("error");
                    let value = o["evalue"].as_str().unwrap_or("");
                    out.push(problem(
                        Some(i),
                        format!("error output: {name}: {}", first_lines(value, 6)),
                    ));
                }
                Some("stream") if o["name"] == "stderr" => stderr.push_str(&text_of(&o["text"])),
                Some("stream") => stdout.push_str(&text_of(&o["text"])),
                Some("execute_result") if text_of(&o["data"]["text/plain"]).trim() == "()" => {
                    out.push(problem(
                        Some(i),
                        "shows `()`: the cell ends in an expression with no value; end it with `;`",
                    ));
                }
                _ => {}
            }
        }
        for (name, text) in [("stderr", &stderr), ("stdout", &stdout)] {
            if let Some(at) = text.find("panicked at") {
                out.push(problem(
                    Some(i),
                    format!(
                        "panicked ({name}; evcxr may file a panic's text under the cell after \
                         the one that panicked): {}",
                        first_lines(&text[at..], 3)
                    ),
                ));
            }
        }
        if let Some(line) =
            stderr.lines().find(|l| l.starts_with("error[E") || l.starts_with("error:"))
        {
            out.push(problem(Some(i), format!("compile error: {line}")));
        }
        if let Some(line) = stdout.lines().find(|l| has_timing(l)) {
            if !stdout.lines().any(is_machine_line) {
                out.push(problem(
                    Some(i),
                    format!(
                        "prints a time with no machine beside it ({:?}): print \
                         support::machine::describe(), or the report's machine, in the same cell",
                        line.trim()
                    ),
                ));
            }
        }
    }
    Ok(out)
}

/// Units of time (and rates per second) that make a number a measurement of this machine.
const TIME_UNITS: [&str; 9] =
    ["ms", "s", "µs", "us", "ns", "min", "seconds", "GFLOP/s", "tokens/s"];

/// Whether `line` prints a time or a rate: a number followed (after at most one space) by a unit
/// of [`TIME_UNITS`] that ends the word, as in `81.2 s`, `14.7 ms,` or `400 tokens/s`.
pub(crate) fn has_timing(line: &str) -> bool {
    let chars: Vec<char> = line.chars().collect();
    (0..chars.len()).any(|at| {
        let starts_number =
            chars[at].is_ascii_digit() && (at == 0 || !chars[at - 1].is_alphanumeric());
        if !starts_number {
            return false;
        }
        let mut end = at;
        while end < chars.len()
            && (chars[end].is_ascii_digit() || chars[end] == '.' || chars[end] == ',')
        {
            end += 1;
        }
        if end < chars.len() && chars[end] == ' ' {
            end += 1;
        }
        let rest: String = chars[end..].iter().collect();
        TIME_UNITS.iter().any(|unit| {
            rest.strip_prefix(unit)
                .is_some_and(|after| !after.starts_with(|c: char| c.is_alphanumeric()))
        })
    })
}

/// Whether `line` names a machine as `support::machine::describe()` does: `"<CPU>, 2 cores (avx2, fma)"`.
pub(crate) fn is_machine_line(line: &str) -> bool {
    line.match_indices(" cores (").any(|(at, _)| {
        let before = line[..at].trim_end_matches(|c: char| c.is_ascii_digit());
        before.len() < at && before.ends_with(", ")
    })
}

fn first_lines(s: &str, n: usize) -> String {
    s.lines().take(n).collect::<Vec<_>>().join(" | ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn nb(cells: Value) -> Value {
        json!({"nbformat": 4, "nbformat_minor": 5,
               "metadata": {"kernelspec": {"name": "rust", "display_name": "Rust", "language": "rust"}},
               "cells": cells})
    }

    fn code(id: &str, count: Value, outputs: Value) -> Value {
        json!({"cell_type": "code", "id": id, "metadata": {}, "source": "let x = 1;", "execution_count": count, "outputs": outputs})
    }

    #[test]
    fn clean_executed_notebook_passes() {
        let n = nb(json!([code(
            "a",
            json!(1),
            json!([{"output_type": "stream", "name": "stdout", "text": ["1\n"]}])
        )]));
        assert_eq!(check_executed(&n).unwrap(), vec![]);
    }

    #[test]
    fn a_cell_that_shows_unit_is_reported() {
        let unit = json!([{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                           "data": {"text/plain": ["()"]}}]);
        let p = check_executed(&nb(json!([code("a", json!(1), unit)]))).unwrap();
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].message.contains("shows `()`"), "{p:?}");
        let value = json!([{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                            "data": {"text/plain": ["(1, 2)"]}}]);
        assert_eq!(check_executed(&nb(json!([code("a", json!(1), value)]))).unwrap(), vec![]);
    }

    fn printed(lines: &str) -> Value {
        json!([{"output_type": "stream", "name": "stdout", "text": lines}])
    }

    #[test]
    fn a_time_without_its_machine_is_reported() {
        let bare = printed("100 epochs in 81.2 s\n");
        let p = check_executed(&nb(json!([code("a", json!(1), bare)]))).unwrap();
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].message.contains("no machine beside it") && p[0].message.contains("81.2 s"));
        let named =
            printed("100 epochs in 81.2 s\non Intel(R) Xeon(R) Processor, 2 cores (avx2, fma)\n");
        assert_eq!(check_executed(&nb(json!([code("a", json!(1), named)]))).unwrap(), vec![]);
    }

    #[test]
    fn timings_are_told_from_other_numbers() {
        for timed in [
            "n = 1024:   14.7 ms",
            "in 0.5s",
            "decode 27 tokens/s",
            "401 GFLOP/s",
            "3 min",
            "took 2 seconds",
        ] {
            assert!(has_timing(timed), "{timed:?} is a time");
        }
        for untimed in [
            "20 steps",
            "2 sequences",
            "loss 2.68",
            "4 heads of 16",
            "shape [2, 4, 3, 16]",
            "3 s2 blocks",
            "x2s",
        ] {
            assert!(!has_timing(untimed), "{untimed:?} is not a time");
        }
        assert!(is_machine_line("timed on AMD EPYC 9B14, 2 cores (avx2, fma, avx512f): compare"));
        assert!(is_machine_line("on unknown CPU, 1 cores ()"));
        assert!(!is_machine_line("4 cores (of 8)") && !is_machine_line("cores (avx2)"));
    }

    #[test]
    fn panic_on_stderr_is_reported() {
        let n = nb(json!([code(
            "a",
            json!(1),
            json!([
            {"output_type": "stream", "name": "stderr", "text": ["thread '<unnamed>' panicked at src/lib.rs:3:1:\n"]},
            {"output_type": "stream", "name": "stderr", "text": ["boom\n"]}])
        )]));
        let p = check_executed(&n).unwrap();
        assert_eq!(p.len(), 1);
        assert!(p[0].message.contains("panicked"), "{p:?}");
        assert_eq!(p[0].cell, Some(0));
    }

    #[test]
    fn error_output_is_reported() {
        let n = nb(json!([code(
            "a",
            json!(1),
            json!([{"output_type": "error", "ename": "Error", "evalue": "mismatched types", "traceback": []}])
        )]));
        let p = check_executed(&n).unwrap();
        assert!(p.iter().any(|p| p.message.contains("mismatched types")), "{p:?}");
    }

    #[test]
    fn compiler_error_on_stderr_is_reported() {
        let n = nb(json!([code(
            "a",
            json!(1),
            json!([{"output_type": "stream", "name": "stderr", "text": "error[E0308]: mismatched types\n"}])
        )]));
        assert!(check_executed(&n).unwrap()[0].message.contains("E0308"));
    }

    #[test]
    fn unexecuted_cell_is_reported() {
        let n = nb(json!([code("a", Value::Null, json!([]))]));
        assert_eq!(check_executed(&n).unwrap()[0].message, "was not executed");
    }

    #[test]
    fn source_rules() {
        let good =
            nb(json!([code("a", Value::Null, json!([])), code("b", Value::Null, json!([]))]));
        assert_eq!(check_source(&good).unwrap(), vec![]);
        let dup = nb(json!([code("a", Value::Null, json!([])), code("a", Value::Null, json!([]))]));
        assert!(check_source(&dup).unwrap()[0].message.contains("used twice"));
        let run = nb(json!([code(
            "a",
            json!(3),
            json!([{"output_type": "stream", "name": "stdout", "text": "x"}])
        )]));
        assert_eq!(check_source(&run).unwrap().len(), 2);
        let mut old = good.clone();
        old["nbformat_minor"] = json!(4);
        old["metadata"]["kernelspec"]["name"] = json!("python3");
        assert_eq!(check_source(&old).unwrap().len(), 2);
        let no_id = nb(json!([{"cell_type": "markdown", "metadata": {}, "source": "# hi"}]));
        assert!(check_source(&no_id).unwrap()[0].message.contains("no id"));
    }
}

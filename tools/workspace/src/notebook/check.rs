//! The rules for a notebook: as committed (clean, nbformat 4.5, the `rust` kernel) and after
//! Jupyter ran it (every code cell ran, none errored or panicked).

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
                    format!("panicked ({name}): {}", first_lines(&text[at..], 3)),
                ));
            }
        }
        if let Some(line) =
            stderr.lines().find(|l| l.starts_with("error[E") || l.starts_with("error:"))
        {
            out.push(problem(Some(i), format!("compile error: {line}")));
        }
    }
    Ok(out)
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

//! Running the notebooks headless, and reading what they printed.
//!
//! `jupyter nbconvert --execute` exits 0 when an evcxr cell panics: the panic is only a stream of
//! text on stderr. So a notebook passes only if [`check_executed`] finds nothing wrong in the
//! executed copy: no `error` output, no `panicked at`, no compiler error, every code cell run.

use anyhow::{bail, Context, Result};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One thing wrong with a notebook: which cell (index in the file) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub cell: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.cell {
            Some(i) => write!(f, "cell {i}: {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

fn problem(cell: Option<usize>, message: impl Into<String>) -> Problem {
    Problem { cell, message: message.into() }
}

/// The text of a `source` or stream `text` field, which nbformat stores as a string or a list.
pub fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts.iter().filter_map(|p| p.as_str()).collect(),
        _ => String::new(),
    }
}

fn cells(nb: &Value) -> Result<&Vec<Value>> {
    nb["cells"].as_array().context("not a notebook: no \"cells\" list")
}

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

/// Reads a notebook file.
pub fn read(path: &Path) -> Result<Value> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not valid JSON", path.display()))
}

/// The project's Python venv: `$AIR_VENV`, or `${XDG_CACHE_HOME:-~/.cache}/attention-in-rust/venv`.
pub fn venv_dir() -> PathBuf {
    if let Some(v) = std::env::var_os("AIR_VENV") {
        return PathBuf::from(v);
    }
    let cache = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache")
    });
    cache.join("attention-in-rust").join("venv")
}

/// The venv's `jupyter`, or an error that says how to install it.
pub fn jupyter() -> Result<PathBuf> {
    let j = venv_dir().join("bin").join("jupyter");
    if !j.exists() {
        bail!(
            "{} not found: run `cargo xtask setup` to install Jupyter and the evcxr kernel",
            j.display()
        );
    }
    let kernels = Command::new(&j).args(["kernelspec", "list"]).output()?;
    if !String::from_utf8_lossy(&kernels.stdout)
        .lines()
        .any(|l| l.trim_start().starts_with("rust "))
    {
        bail!("Jupyter has no `rust` kernel: run `cargo xtask setup` (cargo install --locked evcxr_jupyter; evcxr_jupyter --install)");
    }
    Ok(j)
}

/// Executes `notebook` headless with the evcxr kernel (working directory: the notebook's folder),
/// writes the executed copy into `out_dir`, and returns the problems [`check_executed`] finds.
/// An `Err` means the notebook could not be run at all.
pub fn execute(notebook: &Path, out_dir: &Path) -> Result<(PathBuf, Vec<Problem>)> {
    let jupyter = jupyter()?;
    std::fs::create_dir_all(out_dir)?;
    let notebook =
        notebook.canonicalize().with_context(|| format!("{} not found", notebook.display()))?;
    let dir = notebook.parent().context("notebook has no folder")?;
    let status = Command::new(jupyter)
        .current_dir(dir)
        .args([
            "nbconvert",
            "--to",
            "notebook",
            "--execute",
            "--allow-errors",
            "--ExecutePreprocessor.kernel_name=rust",
            "--ExecutePreprocessor.timeout=1800",
            "--output-dir",
        ])
        .arg(out_dir)
        .arg(&notebook)
        .status()
        .context("running jupyter nbconvert")?;
    let executed = out_dir.join(notebook.file_name().context("notebook has no file name")?);
    if !status.success() {
        bail!("jupyter nbconvert failed ({status}) on {}", notebook.display());
    }
    let problems = check_executed(&read(&executed)?)?;
    Ok((executed, problems))
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
    fn timestamps_and_the_first_output() {
        assert_eq!(timestamp("1970-01-02T00:00:01.5Z"), Some(86_401.5));
        assert_eq!(timestamp("2000-03-01T00:00:00Z"), Some(951_868_800.0));
        let timed = |src: &str, start: &str, end: &str, out: Value| {
            json!({"cell_type": "code", "id": src, "metadata": {"execution": {
                "iopub.execute_input": start, "shell.execute_reply": end}},
                "source": src, "execution_count": 1, "outputs": out})
        };
        let printed = json!([{"output_type": "stream", "name": "stdout", "text": "x"}]);
        let n = nb(json!([
            timed(":dep a", "2026-01-01T10:00:00Z", "2026-01-01T10:00:09Z", printed.clone()),
            timed("let a = 1;", "2026-01-01T10:00:09Z", "2026-01-01T10:00:12Z", json!([])),
            timed("println!()", "2026-01-01T10:00:12Z", "2026-01-01T10:00:14.5Z", printed),
        ]));
        assert_eq!(seconds_to_first_output(&n), Some(14.5));
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

//! Notebooks: one evcxr notebook per chapter, committed clean and executed headless by Jupyter.
//!
//! `jupyter nbconvert --execute` exits 0 when an evcxr cell panics: the panic is only a stream of
//! text on stderr. So a notebook passes only if [`check_executed`] finds nothing wrong in the
//! executed copy: no `error` output, no `panicked at`, no compiler error, every code cell run.
//!
//! * `check`: the rules for a notebook as committed ([`check_source`]) and after it ran
//!   ([`check_executed`]); reads JSON only.
//! * `timing`: how long a reader waits for the first output ([`seconds_to_first_output`]).
//! * `jupyter`: finding Jupyter and the evcxr kernel, and running a notebook ([`execute`]).

mod check;
mod jupyter;
mod timing;

pub use check::{check_executed, check_source};
pub use jupyter::{evcxr_dir, execute, execute_all, jupyter, venv_dir};
pub use timing::{seconds_executing, seconds_to_first_output};

use anyhow::{Context, Result};
use serde_json::Value;
use std::path::Path;

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

pub(crate) fn problem(cell: Option<usize>, message: impl Into<String>) -> Problem {
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

pub(crate) fn cells(nb: &Value) -> Result<&Vec<Value>> {
    nb["cells"].as_array().context("not a notebook: no \"cells\" list")
}

/// Reads a notebook file.
pub fn read(path: &Path) -> Result<Value> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not valid JSON", path.display()))
}

/// The notebook's `:dep` line for the crate `name` (`:dep dfdx = …`), from the first code cell
/// that has one; `None` where no cell asks for it.
pub fn dep_line(nb: &Value, name: &str) -> Option<String> {
    let start = format!(":dep {name} ");
    let code = cells(nb).ok()?.iter().filter(|c| c["cell_type"] == "code");
    let sources: Vec<String> = code.map(|c| text_of(&c["source"])).collect();
    let line = sources.iter().flat_map(|s| s.lines()).find(|l| l.starts_with(&start));
    line.map(str::to_string)
}

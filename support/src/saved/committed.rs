//! [`Committed`]: a training run whose weights and report are committed beside its crate, named
//! once by the chapter (`trained::RUN`) and read and written only through it.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::{load_weights, read_json, save_pair};
use crate::error::{LoadError, SaveError};

/// A committed training run: where its weights and its report are, and the command that writes
/// both. Every error of a load names the file and this command.
///
/// ```
/// use support::saved::Committed;
/// const RUN: Committed = Committed {
///     weights: "weights/none.safetensors",
///     report: "weights/none.json",
///     command: "cargo run --example train",
/// };
/// let e = RUN.try_report::<Vec<f64>>().unwrap_err();
/// let message = "weights/none.json: no such file; `cargo run --example train` writes it";
/// assert_eq!(e.to_string(), message);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Committed {
    /// the trained model, a safetensors file
    pub weights: &'static str,
    /// the report of the run, a JSON file
    pub report: &'static str,
    /// the command that trains the model and writes both
    pub command: &'static str,
}

impl Committed {
    /// `model` with the weights of the file at `path` read into it by `load` (for dfdx,
    /// `|m, p| m.load_safetensors(p)`).
    pub fn try_load_from<M, E: std::fmt::Debug>(
        &self,
        path: impl AsRef<Path>,
        mut model: M,
        load: impl FnOnce(&mut M, &Path) -> Result<(), E>,
    ) -> Result<M, LoadError> {
        load_weights(path, self.command, |p| load(&mut model, p))?;
        Ok(model)
    }

    /// `model` with the committed weights read into it by `load`.
    pub fn try_load<M, E: std::fmt::Debug>(
        &self,
        model: M,
        load: impl FnOnce(&mut M, &Path) -> Result<(), E>,
    ) -> Result<M, LoadError> {
        self.try_load_from(self.weights, model, load)
    }

    /// The committed report.
    pub fn try_report<R: DeserializeOwned>(&self) -> Result<R, LoadError> {
        read_json(self.report, "a training report", self.command)
    }

    /// The committed report.
    ///
    /// # Panics
    /// With [`try_report`](Self::try_report)'s error: the file is missing or not a report.
    pub fn report<R: DeserializeOwned>(&self) -> R {
        self.try_report().unwrap_or_else(|e| panic!("{e}"))
    }

    /// Replaces the committed weights (written by `write_weights` to the path it is given, for
    /// dfdx `|p| model.save_safetensors(p)`) and report together, as [`save_pair`] does: a
    /// failure before both are complete leaves the committed pair as it was.
    pub fn try_save<E: std::fmt::Debug, R: Serialize + ?Sized>(
        &self,
        write_weights: impl FnOnce(&Path) -> Result<(), E>,
        report: &R,
    ) -> Result<(), SaveError> {
        save_pair(self.weights, write_weights, self.report, report)
    }

    /// [`try_save`](Self::try_save), for the training examples.
    ///
    /// # Panics
    /// With its error, which names the file.
    pub fn save<E: std::fmt::Debug, R: Serialize + ?Sized>(
        &self,
        write_weights: impl FnOnce(&Path) -> Result<(), E>,
        report: &R,
    ) {
        self.try_save(write_weights, report).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Checks that the committed report reads back as an `R` that writes the file again byte
    /// for byte: nothing in the file is lost, reordered or rounded by the chapter's types.
    ///
    /// # Panics
    /// If it does not, naming the first line that differs.
    pub fn assert_report_resaves_unchanged<R: Serialize + DeserializeOwned>(&self) {
        assert_json_resaves_unchanged::<R>(self.report, self.command);
    }
}

/// Checks that the JSON file at `path` reads back as an `R` that writes it again byte for byte
/// (as [`save_json`](super::save_json) writes); `command` writes the file.
///
/// # Panics
/// If it does not, naming the file and the first line that differs.
pub fn assert_json_resaves_unchanged<R: Serialize + DeserializeOwned>(
    path: &str,
    command: &'static str,
) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let value: R =
        read_json(path, "what it was written from", command).unwrap_or_else(|e| panic!("{e}"));
    let again = serde_json::to_string_pretty(&value).expect("it serialises") + "\n";
    if let Some((i, (old, new))) =
        text.lines().zip(again.lines()).enumerate().find(|(_, (old, new))| old != new)
    {
        panic!("{path}, line {}: the file has {old:?}, written again {new:?}", i + 1);
    }
    assert_eq!(text, again, "{path}: written again, it has another length");
}

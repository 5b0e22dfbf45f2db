//! [`Committed`]: a training run whose weights and report are committed beside its crate, named
//! once by the chapter (`trained::RUN`) and read and written only through it.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::{finish_interrupted_save, load_weights, read_json, save_pair};
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

    /// `model` with the committed weights read into it by `load` (a save that was stopped after
    /// the new pair was complete is finished first).
    pub fn try_load<M, E: std::fmt::Debug>(
        &self,
        model: M,
        load: impl FnOnce(&mut M, &Path) -> Result<(), E>,
    ) -> Result<M, LoadError> {
        self.finish_interrupted_save()?;
        self.try_load_from(self.weights, model, load)
    }

    /// The committed report (a save that was stopped after the new pair was complete is finished
    /// first).
    pub fn try_report<R: DeserializeOwned>(&self) -> Result<R, LoadError> {
        self.finish_interrupted_save()?;
        read_json(self.report, "a training report", self.command)
    }

    /// Finishes a save of this run that was stopped after the new weights and report were both
    /// complete ([`finish_interrupted_save`]); every load calls it first, so that it reads the
    /// new pair, never the new weights beside the old report. Without one, it only looks.
    pub fn finish_interrupted_save(&self) -> Result<(), LoadError> {
        match finish_interrupted_save(self.weights, self.report) {
            Ok(_) => Ok(()),
            Err(SaveError::Unfinished { pending, detail, .. }) => {
                Err(LoadError::Interrupted { pending, detail, remedy: self.command })
            }
            Err(other) => Err(LoadError::Interrupted {
                pending: self.report.to_string(),
                detail: other.to_string(),
                remedy: self.command,
            }),
        }
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
    /// failure or a kill before both are complete leaves the committed pair as it was.
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A load finds a save that was stopped after the new pair was complete, half moved (the new
    /// weights beside the old report), and finishes it before it reads: it reads the new pair.
    #[test]
    fn a_load_finishes_an_interrupted_save_first() {
        let dir = std::env::temp_dir().join(format!("support-committed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(".run.json.pair")).unwrap();
        let path = |name: &str| -> &'static str {
            Box::leak(dir.join(name).display().to_string().into_boxed_str())
        };
        let run =
            Committed { weights: path("run.bin"), report: path("run.json"), command: "train" };
        std::fs::write(run.weights, b"new weights").unwrap();
        std::fs::write(run.report, b"[0]").unwrap();
        std::fs::write(dir.join(".run.json.pair/report"), b"[1]").unwrap();
        assert_eq!(run.try_report::<Vec<u8>>().unwrap(), [1]);
        assert!(!dir.join(".run.json.pair").exists());
        let weights = run.try_load(Vec::new(), |w, p| std::fs::read(p).map(|b| *w = b)).unwrap();
        assert_eq!(weights, b"new weights");

        // a pair that cannot be moved into place is an error naming the command, never a mix
        std::fs::create_dir_all(dir.join(".run.json.pair")).unwrap();
        std::fs::write(dir.join(".run.json.pair/report"), b"[2]").unwrap();
        std::fs::remove_file(run.report).unwrap();
        std::fs::create_dir_all(dir.join("run.json/in the way")).unwrap();
        let e = run.try_report::<Vec<u8>>().unwrap_err();
        assert!(matches!(e, LoadError::Interrupted { .. }), "{e}");
        assert!(e.to_string().ends_with("or `train` writes the run again"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

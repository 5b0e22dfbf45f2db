//! [`Comparisons`]: a chapter's committed runs, `measurements/speed/<machine>.json` beside its
//! crate, and the pages' files generated from them.

use std::path::PathBuf;

use serde::de::DeserializeOwned;

use crate::saved::read_json_folder;

/// Where a chapter keeps its comparisons, and the script that writes them; named once by the
/// chapter (`speed_table::RUNS`).
///
/// ```
/// use support::speed::Comparisons;
/// const RUNS: Comparisons = Comparisons {
///     crate_dir: "chapters/12-real-bert",
///     writer: "python3 chapters/12-real-bert/compare/compare_speed.py",
/// };
/// assert!(RUNS.folder().ends_with("12-real-bert/measurements/speed"));
/// assert!(RUNS.page_file("speed.md").ends_with("12-real-bert/measurements/speed.md"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comparisons {
    /// the chapter crate's folder (`env!("CARGO_MANIFEST_DIR")`)
    pub crate_dir: &'static str,
    /// the command that writes a comparison, which every error names
    pub writer: &'static str,
}

impl Comparisons {
    /// `measurements/speed/`, one file per machine.
    pub fn folder(&self) -> PathBuf {
        PathBuf::from(self.crate_dir).join("measurements").join("speed")
    }

    /// `measurements/<name>`: a file the page includes, generated from the runs.
    pub fn page_file(&self, name: &str) -> PathBuf {
        PathBuf::from(self.crate_dir).join("measurements").join(name)
    }

    /// Every committed run, by file name without `.json`, sorted.
    ///
    /// # Panics
    /// If a file cannot be read as a `T`; the message names it and the [`writer`](Self::writer).
    pub fn read<T: DeserializeOwned>(&self) -> Vec<(String, T)> {
        read_json_folder(self.folder(), "a speed comparison", self.writer)
            .unwrap_or_else(|e| panic!("{e}"))
    }
}

/// Each run's `text` (its table), one after another, a blank line between.
pub fn joined<T>(runs: &[(String, T)], text: impl Fn(&T) -> String) -> String {
    runs.iter().map(|(_, run)| text(run)).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_is_read_in_order_and_joined() {
        let dir = std::env::temp_dir().join(format!("support-speed-{}", std::process::id()));
        let runs = Comparisons { crate_dir: dir.to_str().unwrap().to_string().leak(), writer: "w" };
        std::fs::create_dir_all(runs.folder()).unwrap();
        std::fs::write(runs.folder().join("xeon.json"), "[1.5]").unwrap();
        std::fs::write(runs.folder().join("amd-epyc.json"), "[2.5, 3.0]").unwrap();
        std::fs::write(runs.page_file("speed.md"), "not a run").unwrap();
        let read: Vec<(String, Vec<f64>)> = runs.read();
        assert_eq!(read, [("amd-epyc".into(), vec![2.5, 3.0]), ("xeon".into(), vec![1.5])]);
        assert_eq!(joined(&read, |r| format!("{} rounds\n", r.len())), "2 rounds\n\n1 rounds\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    #[should_panic(expected = "no such file; `python3 compare_speed.py` writes it")]
    fn a_missing_folder_names_its_writer() {
        let runs = Comparisons { crate_dir: "/nonexistent", writer: "python3 compare_speed.py" };
        runs.read::<u8>();
    }
}

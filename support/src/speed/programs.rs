//! [`Timed`]: a program of a comparison, whatever else its chapter records of it; finding one by
//! name, checking every one a page needs, and the libraries they ran on.

use std::collections::BTreeMap;

use super::series::Series;

/// A program as the checks see it: its name in the file, the libraries it ran on, and its
/// rounds, one [`Series`] per measure (chapter 11 times prefill and decode).
#[derive(Clone, Debug, PartialEq)]
pub struct Timing<'a> {
    pub name: &'a str,
    /// library and version, as the file records them (may be empty)
    pub versions: &'a BTreeMap<String, String>,
    pub series: Vec<Series<'a>>,
}

/// A program of a chapter's comparison, whatever its file records beside its rounds.
pub trait Timed {
    fn timing(&self) -> Timing<'_>;
}

/// The program named `name`, if the run has it.
pub fn find<'a, P: Timed>(programs: &'a [P], name: &str) -> Option<&'a P> {
    programs.iter().find(|p| p.timing().name == name)
}

/// The program named `name`.
///
/// # Panics
/// If the run does not have it.
pub fn program<'a, P: Timed>(programs: &'a [P], name: &str) -> &'a P {
    find(programs, name).unwrap_or_else(|| panic!("no {name}"))
}

/// Whether each of `names` is among `programs` with `rounds` rounds of every measure, each
/// [`Series::check`]ed; the first failure, named.
pub fn check_programs<'n, P: Timed>(
    programs: &[P],
    names: impl IntoIterator<Item = &'n str>,
    rounds: usize,
) -> Result<(), String> {
    for name in names {
        let p = find(programs, name).ok_or_else(|| format!("{name} is missing"))?;
        p.timing().series.iter().try_for_each(|s| s.check(name, rounds))?;
    }
    Ok(())
}

/// Whether `program` records the libraries it ran on.
pub fn check_versions(program: &impl Timed) -> Result<(), String> {
    let timing = program.timing();
    match timing.versions.is_empty() {
        true => Err(format!("{}: no versions recorded", timing.name)),
        false => Ok(()),
    }
}

/// Every library the programs ran on, once, sorted, with `_` written `-`:
/// `"sentence-transformers 6.2.0, torch 2.15.0"`.
pub fn versions<P: Timed>(programs: &[P]) -> String {
    let mut all = BTreeMap::new();
    for p in programs {
        for (library, version) in p.timing().versions {
            all.insert(library.replace('_', "-"), version.clone());
        }
    }
    all.iter().map(|(l, v)| format!("{l} {v}")).collect::<Vec<_>>().join(", ")
}

//! A speed comparison committed per machine (`measurements/speed/<machine>.json`, written by a
//! chapter's `compare/compare_speed.py`): programs timed side by side in alternating rounds on one
//! machine, every round kept, so that the page can give the best, the median and the ratio round
//! by round. Chapters 11, 12 and 13 read theirs with these pieces and add what only they measure.
//!
//! * [`Header`]: where and how a run was measured (machine, instruction set, threads, rounds),
//!   the fields every file starts with, and their check.
//! * [`Timed`]: a chapter's program, seen as its [`Timing`]: its name, its libraries and its
//!   rounds ([`Series`], rates or seconds), checked by [`check_programs`].
//! * [`Ratio`]: one program's speed over another's, by best, by median and round by round.
//! * [`Comparisons`]: a chapter's committed files and the script that writes them; [`text`]: the
//!   sentences and table rows the pages share.

mod folder;
mod header;
mod programs;
mod ratio;
mod series;
#[cfg(test)]
mod tests;
pub mod text;

pub use folder::{joined, Comparisons};
pub use header::Header;
pub use programs::{check_programs, check_versions, find, program, versions, Timed, Timing};
pub use ratio::Ratio;
pub use series::{Series, Unit};

/// The fewest rounds a comparison may have where it gives a median: three.
pub const MIN_ROUNDS: usize = 3;

//! What a training example saves beside its crate (`weights/`) and how the chapter reads it back.
//!
//! * [`Committed`]: one committed run, its weights, its report and the command that writes both;
//!   each training chapter names its run once (`trained::RUN`), loads and saves through it, and
//!   has [`trained_loaders!`](crate::trained_loaders) write its loading functions.
//! * [`RunReport`]: what every run's report starts with (configuration, parameters, machine),
//!   around what the chapter measured.
//! * [`save_pair`], [`save_json`], [`save_bytes`]: writes that replace the files already there only once the new
//!   ones are complete, failing with a [`SaveError`](crate::SaveError) that names the file; a
//!   weights-and-report pair is replaced as a pair, even by a save that is killed part-way
//!   ([`finish_interrupted_save`]).
//! * [`load_weights`], [`read_json`], [`read_json_folder`]: reads that fail with a
//!   [`LoadError`](crate::LoadError) naming the file and the command that writes it.

mod committed;
mod load;
mod loaders;
mod report;
mod save;

pub use committed::{assert_json_resaves_unchanged, Committed};
pub use load::{load_weights, read_json, read_json_folder};
pub use report::RunReport;
pub use save::{finish_interrupted_save, save_bytes, save_json, save_pair};

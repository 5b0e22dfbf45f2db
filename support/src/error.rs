//! What can go wrong when a training example saves its run, or a chapter reads it back, and when
//! an example reads its command line.

/// Why a file that a training run saved (its weights, its report) could not be read back.
#[derive(Debug)]
pub enum LoadError {
    /// no file at `path`; `remedy` is the command that writes it
    Missing { path: String, remedy: &'static str },
    /// a file, but not what it should hold (`expected`): truncated, other names, other shapes,
    /// other fields
    Mismatch { path: String, expected: &'static str, detail: String, remedy: &'static str },
    /// a save of the run was stopped after the new pair was complete, and what it left (`pending`)
    /// cannot be moved into place (`detail`)
    Interrupted { pending: String, detail: String, remedy: &'static str },
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Missing { path, remedy } => {
                write!(f, "{path}: no such file; `{remedy}` writes it")
            }
            LoadError::Mismatch { path, expected, detail, remedy } => {
                write!(f, "{path} does not hold {expected} ({detail}); `{remedy}` writes it again")
            }
            LoadError::Interrupted { pending, detail, remedy } => write!(
                f,
                "{pending} holds a saved run that could not be moved into place ({detail}); fix \
                 that and load again, or `{remedy}` writes the run again"
            ),
        }
    }
}

impl std::error::Error for LoadError {}

/// Why a training run's files could not be saved. Every variant but [`SaveError::Unfinished`]
/// leaves the files already there as they were, with no temporary file beside them.
#[derive(Debug)]
pub enum SaveError {
    /// what was to go to `path` does not serialise as JSON (`detail`): nothing was written
    Serialize { path: String, detail: String },
    /// `path` (its temporary sibling, or the rename into place) could not be written: the writer
    /// failed or the file system refused (`detail`)
    Write { path: String, detail: String },
    /// the new pair is complete in the folder `pending`, but `path` could not be moved from it
    /// into place (`detail`): the next load or save of the run moves it, once that is fixed
    Unfinished { pending: String, path: String, detail: String },
}

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SaveError::Serialize { path, detail } => write!(
                f,
                "what was to go to {path} does not serialise as JSON ({detail}); nothing was \
                 written: make its `Serialize` succeed"
            ),
            SaveError::Write { path, detail } => write!(
                f,
                "could not write {path} ({detail}); the files already there are unchanged: check \
                 that its folder is writable and the disk has room, then run again"
            ),
            SaveError::Unfinished { pending, path, detail } => write!(
                f,
                "the new files are complete in {pending}, but {path} could not be replaced \
                 ({detail}); once that is fixed, the next load or save of the run moves them \
                 into place"
            ),
        }
    }
}

impl std::error::Error for SaveError {}

/// An argument on an example's command line that is not UTF-8 text ([`crate::cli::utf8_args`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgNotUtf8 {
    /// which argument, counted from 1 after the program's name
    pub position: usize,
    /// the argument with U+FFFD in place of the bytes that are not UTF-8
    pub shown: String,
}

impl std::fmt::Display for ArgNotUtf8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "argument {} is not UTF-8 text ({:?}, where \u{FFFD} stands for the bytes that are \
             not): pass it as UTF-8",
            self.position, self.shown
        )
    }
}

impl std::error::Error for ArgNotUtf8 {}

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
        }
    }
}

impl std::error::Error for LoadError {}

/// Why a training run's files could not be saved. Every variant but [`SaveError::Torn`] leaves
/// the files already there as they were, with no temporary file beside them.
#[derive(Debug)]
pub enum SaveError {
    /// what was to go to `path` does not serialise as JSON (`detail`): nothing was written
    Serialize { path: String, detail: String },
    /// `path` (its temporary sibling, or the rename into place) could not be written: the writer
    /// failed or the file system refused (`detail`)
    Write { path: String, detail: String },
    /// `replaced` was renamed into place, but then `path` could not be (`detail`): the two files
    /// on disk no longer come from the same run
    Torn { path: String, replaced: String, detail: String },
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
            SaveError::Torn { path, replaced, detail } => write!(
                f,
                "{replaced} was replaced but {path} could not be ({detail}); the two no longer \
                 belong together: run the command that writes them again"
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

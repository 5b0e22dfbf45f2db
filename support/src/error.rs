//! What can go wrong when a chapter reads back what one of its examples saved.

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

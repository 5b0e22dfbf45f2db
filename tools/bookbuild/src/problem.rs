//! The [`Problem`] the checks report, the error message that lists them, and the line numbers
//! they are reported at.

use std::fmt;
use std::path::PathBuf;

/// One problem found by [`find_problems`](crate::find_problems) or
/// [`check_output`](crate::check_output).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file, relative to the folder that was checked where possible.
    pub file: PathBuf,
    /// 1-based line, or 0 when the problem is about the whole file.
    pub line: usize,
    /// What is wrong, and where it helps, how to fix it.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}: {}", self.file.display(), self.line, self.message)
        } else {
            write!(f, "{}: {}", self.file.display(), self.message)
        }
    }
}

/// One message listing every problem, headed by their number and `what` they are.
pub(crate) fn report(what: &str, problems: &[Problem]) -> String {
    let mut msg = format!("{} {what}:", problems.len());
    for p in problems {
        msg.push_str("\n  - ");
        msg.push_str(&p.to_string());
    }
    msg
}

/// Maps byte offsets of a text to line numbers.
pub(crate) struct LineIndex(Vec<usize>);

impl LineIndex {
    pub(crate) fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex(starts)
    }
    /// 1-based line of a byte offset.
    pub(crate) fn line(&self, offset: usize) -> usize {
        self.0.partition_point(|&s| s <= offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_index_is_one_based() {
        let idx = LineIndex::new("a\nbc\n\nd");
        assert_eq!(idx.line(0), 1);
        assert_eq!(idx.line(2), 2);
        assert_eq!(idx.line(5), 3);
        assert_eq!(idx.line(6), 4);
    }
}

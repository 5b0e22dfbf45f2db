//! The examples' command lines, read in one place: the arguments as text, and what an example does
//! with a mistake on its command line or a file it cannot read: print one line and exit with
//! status 2.

use std::ffi::OsString;

use crate::error::ArgNotUtf8;

/// The arguments after the program's name, as text. An argument that is not UTF-8 (a file name in
/// another encoding, bytes from a script) prints one line naming it and exits with status 2,
/// where `std::env::args` would panic.
pub fn args_or_exit() -> Vec<String> {
    or_exit(utf8_args(std::env::args_os().skip(1)))
}

/// `args` as text, or the first of them that is not UTF-8, counted from 1.
///
/// ```
/// use std::ffi::OsString;
/// use std::os::unix::ffi::OsStringExt;
/// let args = [OsString::from("--top"), OsString::from_vec(b"caf\xE9".to_vec())];
/// let e = support::cli::utf8_args(args).unwrap_err();
/// assert_eq!(e.position, 2);
/// assert!(e.to_string().starts_with("argument 2 is not UTF-8 text (\"caf\u{FFFD}\""));
/// ```
pub fn utf8_args(args: impl IntoIterator<Item = OsString>) -> Result<Vec<String>, ArgNotUtf8> {
    (args.into_iter().enumerate())
        .map(|(i, arg)| {
            arg.into_string().map_err(|arg| ArgNotUtf8 {
                position: i + 1,
                shown: arg.to_string_lossy().into_owned(),
            })
        })
        .collect()
}

/// The value of `result`, or its error on stderr and exit status 2 (for the examples; a library
/// returns the error instead).
pub fn or_exit<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    })
}

/// For the examples that take one optional flag: whether `flag` was given; anything else prints
/// `usage` on stderr and exits with status 2.
pub fn flag_or_exit(flag: &str, usage: &str) -> bool {
    match args_or_exit().as_slice() {
        [] => false,
        [given] if given == flag => true,
        _ => {
            eprintln!("{usage}");
            std::process::exit(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStringExt;

    #[test]
    fn text_arguments_pass_through_unchanged() {
        let args = ["--top", "3", "why d_k?", "Naïve 🙂", ""].map(OsString::from);
        let want = ["--top", "3", "why d_k?", "Naïve 🙂", ""];
        assert_eq!(utf8_args(args).unwrap(), want);
        assert!(utf8_args([]).unwrap().is_empty());
    }

    #[test]
    fn the_first_argument_that_is_not_utf8_is_named_in_one_line() {
        let bad = |bytes: &[u8]| OsString::from_vec(bytes.to_vec());
        let args = [OsString::from("ok"), bad(b"line\n\xFF"), bad(b"\xC3")];
        let e = utf8_args(args).unwrap_err();
        assert_eq!((e.position, e.shown.as_str()), (2, "line\n\u{FFFD}"));
        let message = e.to_string();
        assert_eq!(
            message,
            "argument 2 is not UTF-8 text (\"line\\n\u{FFFD}\", where \u{FFFD} stands for the \
             bytes that are not): pass it as UTF-8"
        );
        assert_eq!(message.lines().count(), 1, "a newline in the argument is escaped");
    }
}

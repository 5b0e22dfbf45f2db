//! What the examples do with a mistake on their command line or a file they cannot read: print
//! one line and exit with status 2.

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
    match std::env::args().skip(1).collect::<Vec<_>>().as_slice() {
        [] => false,
        [given] if given == flag => true,
        _ => {
            eprintln!("{usage}");
            std::process::exit(2)
        }
    }
}

//! Command-line arguments as a POSIX shell reads them: an `.args` line is read the way a shell
//! reads the words after `--`, and the command line printed above an output quotes each argument
//! so that pasting it into a shell passes the same arguments.

use std::borrow::Cow;

/// Characters that a shell treats specially outside quotes (expansion, globbing, redirection,
/// separators, comments, history): an `.args` line must quote them, and [`quote`] does.
const SPECIAL: &str = "$`*?[]{}~;&|<>()#!";

/// `arg` as it is typed in a shell: bare when it is made of letters, digits and `-_./:=@%+,`
/// only (and starts with neither `=` nor `~`, which some shells expand there); otherwise in
/// double quotes, which read best in prose, unless it holds a character that double quotes do
/// not keep literally (`"`, `\`, `$`, a backquote, or `!`, which interactive bash expands even
/// there); then in single quotes, an apostrophe written `'\''` (close, escaped quote, reopen).
pub fn quote(arg: &str) -> Cow<'_, str> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c);
    if !arg.is_empty() && arg.chars().all(plain) && !arg.starts_with('=') {
        Cow::Borrowed(arg)
    } else if !arg.contains(['"', '\\', '$', '`', '!']) {
        Cow::Owned(format!("\"{arg}\""))
    } else {
        Cow::Owned(format!("'{}'", arg.replace('\'', r"'\''")))
    }
}

/// The arguments of an `.args` line, read as a POSIX shell reads words: separated by white space;
/// `'...'` keeps everything up to the next `'` as it is; `"..."` keeps everything but `\"`, `\\`,
/// `` \` `` and `\$`, which stand for the character after the backslash; outside quotes, `\`
/// keeps the next character as it is; quoted and bare parts next to each other make one argument
/// (`'can'\''t'` is `can't`). What a shell would expand instead of passing on (`$`, a backquote
/// or a glob outside single quotes, an unclosed quote) is an error that says how to write it.
pub fn split(line: &str) -> Result<Vec<String>, String> {
    let mut args = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c.is_whitespace() {
            args.extend(word.take());
            continue;
        }
        let arg = word.get_or_insert_with(String::new);
        match c {
            '\'' => loop {
                match chars.next() {
                    Some('\'') => break,
                    Some(c) => arg.push(c),
                    None => return Err("a single quote (') is not closed".into()),
                }
            },
            '"' => loop {
                match chars.next() {
                    Some('"') => break,
                    Some('\\') => match chars.next() {
                        Some(c @ ('"' | '\\' | '$' | '`')) => arg.push(c),
                        Some(c) => arg.extend(['\\', c]),
                        None => return Err("a double quote (\") is not closed".into()),
                    },
                    Some(c @ ('$' | '`')) => {
                        return Err(format!(
                            "{c} inside double quotes: a shell would expand it; write \\{c}, or \
                             quote the argument with '...'"
                        ))
                    }
                    Some(c) => arg.push(c),
                    None => return Err("a double quote (\") is not closed".into()),
                }
            },
            '\\' => match chars.next() {
                Some(c) => arg.push(c),
                None => return Err("a backslash (\\) ends the line: nothing follows it".into()),
            },
            c if SPECIAL.contains(c) => {
                return Err(format!(
                    "{c} outside quotes means something to a shell: quote the argument \
                     (\"...\" or '...')"
                ))
            }
            c => arg.push(c),
        }
    }
    args.extend(word);
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arguments that need each kind of quoting, and some that need none.
    const TRICKY: [&str; 14] = [
        "3",
        "--top",
        "d_k",
        "why divide by d_k?",
        "Attention isn't new: Bahdanau et al. 🙂",
        "can't say \"no\"",
        "a $HOME and `date`",
        "back\\slash",
        "wow!",
        "",
        "=x",
        "~",
        "*",
        "tab\there",
    ];

    #[test]
    fn quoting_reads_as_written_and_only_where_needed() {
        let quoted: Vec<_> = TRICKY.iter().map(|a| quote(a)).collect();
        assert_eq!(
            quoted,
            [
                "3",
                "--top",
                "d_k",
                "\"why divide by d_k?\"",
                "\"Attention isn't new: Bahdanau et al. 🙂\"",
                r#"'can'\''t say "no"'"#,
                "'a $HOME and `date`'",
                r"'back\slash'",
                "'wow!'",
                "\"\"",
                "\"=x\"",
                "\"~\"",
                "\"*\"",
                "\"tab\there\"",
            ]
        );
    }

    #[test]
    fn split_reads_what_quote_writes() {
        let line: Vec<_> = TRICKY.iter().map(|a| quote(a)).collect();
        assert_eq!(split(&line.join(" ")).unwrap(), TRICKY);
    }

    #[test]
    fn split_reads_a_line_as_a_shell_does() {
        let s = |line: &str| split(line).unwrap();
        assert_eq!(s("3 1  4\t1\n"), ["3", "1", "4", "1"]);
        assert_eq!(s(r#""a b" c  "d""#), ["a b", "c", "d"]);
        assert_eq!(s(r"'can'\''t' can\'t 'it''s'"), ["can't", "can't", "its"]);
        assert_eq!(s(r#""say \"hi\" \\ \$ \`" "\n""#), ["say \"hi\" \\ $ `", "\\n"]);
        assert_eq!(s(r#"'$HOME?' "d_k?" a"b"'c'"#), ["$HOME?", "d_k?", "abc"]);
        assert_eq!(s("\"\" ''"), ["", ""]);
        assert!(s("  ").is_empty());
    }

    #[test]
    fn what_a_shell_would_change_is_refused_with_the_fix() {
        let e = |line: &str| split(line).unwrap_err();
        assert!(e("why d_k?").starts_with("? outside quotes means something to a shell"));
        assert!(e("a $HOME").starts_with("$ outside quotes"));
        assert!(e("Attention isn't new").contains("single quote (') is not closed"));
        assert!(e("\"open").contains("double quote (\") is not closed"));
        assert!(e("\"a $x\"").contains("write \\$, or quote the argument with '...'"));
        assert!(e("end\\").contains("nothing follows it"));
    }

    /// What a real shell passes on for the quoted arguments, run in a folder where an unquoted
    /// `d_k?` or `*` would match a file name.
    #[test]
    fn a_shell_passes_on_exactly_the_arguments() {
        let dir = std::env::temp_dir().join(format!("shell-quote-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("d_kX"), "").unwrap();
        let line: Vec<_> = TRICKY.iter().map(|a| quote(a)).collect();
        let script = format!("printf '%s\\0' {}", line.join(" "));
        let out = std::process::Command::new("sh")
            .current_dir(&dir)
            .env("HOME", "/home/someone")
            .args(["-c", &script])
            .output()
            .expect("run sh");
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let passed = String::from_utf8(out.stdout).unwrap();
        let passed: Vec<&str> = passed.strip_suffix('\0').unwrap().split('\0').collect();
        assert_eq!(passed, TRICKY);
    }
}

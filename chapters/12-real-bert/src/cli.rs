//! The command lines of the `embed` and `search` examples: every mistake is a one-line message
//! (the example prints it and exits with status 2, `support::cli::or_exit`).

/// What `embed` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmbedArgs {
    pub texts: Vec<String>,
    /// print the vectors as JSON instead of the similarity matrix
    pub json: bool,
}

/// `embed`'s usage line.
pub const EMBED_USAGE: &str = "usage: embed [--json] TEXT [TEXT ...]";

/// Reads `embed`'s arguments (after the program's name).
pub fn parse_embed_args(args: &[String]) -> Result<EmbedArgs, String> {
    let mut out = EmbedArgs { texts: Vec::new(), json: false };
    for arg in args {
        match arg.as_str() {
            "--json" => out.json = true,
            flag if flag.starts_with("--") => {
                return Err(format!("unknown option {flag}; {EMBED_USAGE}"))
            }
            text => out.texts.push(text.to_owned()),
        }
    }
    if out.texts.is_empty() {
        return Err(format!("no text to embed; {EMBED_USAGE}"));
    }
    Ok(out)
}

/// What `search` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchArgs {
    pub query: String,
    /// how many paragraphs to print
    pub top: usize,
}

/// `search`'s usage line.
pub const SEARCH_USAGE: &str = "usage: search [--top N] QUESTION";

/// Reads `search`'s arguments: the words of the question, and `--top N` (5 unless given).
pub fn parse_search_args(args: &[String]) -> Result<SearchArgs, String> {
    let mut out = SearchArgs { query: String::new(), top: 5 };
    let mut words = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--top" => {
                let n = it.next().ok_or(format!("--top needs a value; {SEARCH_USAGE}"))?;
                out.top = n
                    .parse()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or(format!("--top {n:?}: a whole number of at least 1"))?;
            }
            flag if flag.starts_with("--") => {
                return Err(format!("unknown option {flag}; {SEARCH_USAGE}"))
            }
            word => words.push(word.to_owned()),
        }
    }
    out.query = words.join(" ");
    if out.query.trim().is_empty() {
        return Err(format!("an empty question; {SEARCH_USAGE}"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn embed_takes_texts_and_json() {
        let a = parse_embed_args(&args(&["one", "--json", "two words"])).unwrap();
        assert_eq!(a, EmbedArgs { texts: args(&["one", "two words"]), json: true });
        assert!(parse_embed_args(&args(&[])).unwrap_err().starts_with("no text to embed"));
        assert!(parse_embed_args(&args(&["--json"])).unwrap_err().starts_with("no text"));
        let e = parse_embed_args(&args(&["--vectors", "x"])).unwrap_err();
        assert_eq!(e, format!("unknown option --vectors; {EMBED_USAGE}"));
    }

    #[test]
    fn search_takes_a_question_and_top() {
        let a = parse_search_args(&args(&["why", "divide", "--top", "3", "by d_k?"])).unwrap();
        assert_eq!(a, SearchArgs { query: "why divide by d_k?".into(), top: 3 });
        assert_eq!(parse_search_args(&args(&["q"])).unwrap().top, 5);
        let err = |s: &[&str]| parse_search_args(&args(s)).unwrap_err();
        assert!(err(&[]).starts_with("an empty question"));
        assert!(err(&["  ", " "]).starts_with("an empty question"));
        assert!(err(&["q", "--top"]).starts_with("--top needs a value"));
        assert!(err(&["q", "--top", "0"]).contains("at least 1"));
        assert!(err(&["--fast", "q"]).starts_with("unknown option --fast"));
        for e in [err(&[]), err(&["--fast", "q"]), err(&["q", "--top", "x"])] {
            assert_eq!(e.lines().count(), 1);
        }
    }
}

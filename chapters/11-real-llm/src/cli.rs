//! The chat example's command line: a prompt and options, every mistake a one-line message (the
//! example prints it and exits with status 2).

use crate::chat::{Choice, DEFAULT_SYSTEM};

/// What the chat example was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct ChatArgs {
    pub prompt: String,
    pub system: String,
    /// new tokens at most
    pub tokens: usize,
    pub choice: Choice,
    /// a plain continuation of the prompt, without the chat template
    pub raw: bool,
    /// print the generated ids as a JSON array instead of the text
    pub ids: bool,
}

/// The usage line.
pub const USAGE: &str = "usage: chat [--system TEXT] [--tokens N] [--temperature T] [--top-k K] [--seed S] [--raw] [--ids] PROMPT";

/// Reads the arguments after the program's name.
pub fn parse_chat_args(args: &[String]) -> Result<ChatArgs, String> {
    let mut out = ChatArgs {
        prompt: String::new(),
        system: DEFAULT_SYSTEM.into(),
        tokens: 256,
        choice: Choice::GREEDY,
        raw: false,
        ids: false,
    };
    let mut words = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value =
            |name: &str| it.next().cloned().ok_or(format!("{name} needs a value; {USAGE}"));
        match arg.as_str() {
            "--system" => out.system = value("--system")?,
            "--tokens" => out.tokens = number(&value("--tokens")?, "--tokens", 1.0)? as usize,
            "--top-k" => out.choice.top_k = number(&value("--top-k")?, "--top-k", 0.0)? as usize,
            "--seed" => out.choice.seed = number(&value("--seed")?, "--seed", 0.0)? as u64,
            "--temperature" => {
                let t = value("--temperature")?;
                out.choice.temperature = t
                    .parse::<f32>()
                    .map_err(|_| format!("--temperature {t:?}: a number above 0"))?;
            }
            "--raw" => out.raw = true,
            "--ids" => out.ids = true,
            flag if flag.starts_with("--") => {
                return Err(format!("unknown option {flag}; {USAGE}"))
            }
            word => words.push(word.to_owned()),
        }
    }
    // the notebook and `reply` check a choice the same way
    out.choice.check().map_err(|e| format!("--{e}"))?;
    out.prompt = words.join(" ");
    if out.prompt.trim().is_empty() {
        return Err(format!("an empty prompt; {USAGE}"));
    }
    Ok(out)
}

/// A whole number of at least `min`.
fn number(text: &str, name: &str, min: f64) -> Result<f64, String> {
    text.parse::<u64>()
        .ok()
        .map(|n| n as f64)
        .filter(|&n| n >= min)
        .ok_or(format!("{name} {text:?}: a whole number of at least {min}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn options_and_the_prompt() {
        let a = parse_chat_args(&args(&[
            "--top-k",
            "40",
            "--temperature",
            "0.7",
            "--seed",
            "3",
            "Hi",
            "there",
            "--ids",
        ]))
        .unwrap();
        assert_eq!(a.prompt, "Hi there");
        assert_eq!(a.choice, Choice { top_k: 40, temperature: 0.7, seed: 3 });
        assert!(a.ids && !a.raw && a.tokens == 256 && a.system == DEFAULT_SYSTEM);
        let b =
            parse_chat_args(&args(&["--raw", "--tokens", "8", "--system", "Be brief.", "Once"]))
                .unwrap();
        assert!(b.raw && b.tokens == 8 && b.system == "Be brief." && b.choice.top_k == 1);
    }

    #[test]
    fn mistakes_are_one_line_each() {
        let err = |s: &[&str]| parse_chat_args(&args(s)).unwrap_err();
        assert!(err(&[]).starts_with("an empty prompt"));
        assert!(err(&["  "]).starts_with("an empty prompt"));
        assert!(err(&["--tokens", "0", "x"]).contains("at least 1"));
        assert!(err(&["--tokens", "many", "x"]).contains("a whole number"));
        assert!(err(&["--temperature", "0", "x"]).contains("above 0"));
        assert!(err(&["--temperature", "nan", "x"]).contains("above 0"));
        assert!(err(&["--temperature", "warm", "x"]).contains("above 0"));
        assert!(err(&["--top-k", "-1", "x"]).contains("a whole number"));
        assert!(err(&["--top-k"]).contains("needs a value"));
        assert!(err(&["--fast", "x"]).starts_with("unknown option --fast"));
        for e in [err(&[]), err(&["--fast", "x"]), err(&["--temperature", "0", "x"])] {
            assert_eq!(e.lines().count(), 1);
        }
    }
}

/// The command line, the notebook (through [`Choice::new`]) and [`crate::chat::reply`] refuse the
/// same choices with the same words.
#[cfg(test)]
mod one_check {
    use super::*;

    #[test]
    fn the_cli_and_choice_new_refuse_the_same_choices() {
        let cli = |t: &str, k: &str| {
            let args = ["--temperature", t, "--top-k", k, "x"].map(String::from);
            parse_chat_args(&args).map(|a| a.choice)
        };
        for (t, k) in [("0", "40"), ("NaN", "40"), ("-1", "40"), ("inf", "40")] {
            let direct = Choice::new(k.parse().unwrap(), t.parse().unwrap(), 0);
            let message = direct.clone().unwrap_err();
            assert_eq!(cli(t, k).unwrap_err(), format!("--{message}"), "{t} {k}");
        }
        assert_eq!(cli("0.7", "40"), Choice::new(40, 0.7, 0));
        // top-k 0 is every token, on the command line and in the notebook alike
        assert_eq!(cli("0.7", "0"), Choice::new(0, 0.7, 0));
        assert!(cli("0.7", "0").is_ok());
        assert_eq!(Choice::new(1, 1.0, 0), Ok(Choice::GREEDY));
        assert_eq!(
            Choice::new(40, 0.0, 0).unwrap_err(),
            "temperature 0: a number above 0 (for the likeliest token every time, top-k 1)"
        );
    }
}
